/// Little-endian integers, strings and byte strings, as a flight file writes them: a string
/// or byte string is its length (4 bytes) then its bytes; a missing byte string is the length
/// 0xFFFF_FFFF.
///
/// ```swift
/// var out = FlightBytes()
/// out.put("counter"); out.put(UInt16(3))
/// var input = FlightBytes.Reader(out.bytes[...])
/// input.string()   // "counter"
/// input.uint16()   // 3
/// ```
struct FlightBytes {
  var bytes: [UInt8] = []

  static let missing = UInt32.max

  mutating func put<T: FixedWidthInteger>(_ value: T) {
    withUnsafeBytes(of: value.littleEndian) { self.bytes += $0 }
  }

  mutating func put(_ text: String) {
    self.put(Array(text.utf8))
  }

  mutating func put(_ bytes: [UInt8]) {
    self.put(UInt32(bytes.count))
    self.bytes += bytes
  }

  mutating func put(_ bytes: [UInt8]?) {
    guard let bytes else { return self.put(Self.missing) }
    self.put(bytes)
  }

  /// Reads what ``FlightBytes`` wrote; each read is nil when the bytes run out first.
  struct Reader {
    private var remaining: ArraySlice<UInt8>

    init(_ bytes: ArraySlice<UInt8>) { self.remaining = bytes }

    var isAtEnd: Bool { self.remaining.isEmpty }

    mutating func integer<T: FixedWidthInteger>(_: T.Type) -> T? {
      let size = MemoryLayout<T>.size
      guard self.remaining.count >= size else { return nil }
      var value = T.zero
      for (shift, byte) in self.remaining.prefix(size).enumerated() {
        value |= T(byte) << (8 * shift)
      }
      self.remaining = self.remaining.dropFirst(size)
      return value
    }

    mutating func uint8() -> UInt8? { self.integer(UInt8.self) }
    mutating func uint16() -> UInt16? { self.integer(UInt16.self) }
    mutating func uint32() -> UInt32? { self.integer(UInt32.self) }
    mutating func uint64() -> UInt64? { self.integer(UInt64.self) }

    mutating func bytes() -> [UInt8]? {
      guard let count = self.uint32(), count != FlightBytes.missing, self.remaining.count >= count
      else { return nil }
      defer { self.remaining = self.remaining.dropFirst(Int(count)) }
      return Array(self.remaining.prefix(Int(count)))
    }

    /// A byte string that may be missing: `.some(nil)` when it is, nil when the bytes run out.
    mutating func optionalBytes() -> [UInt8]?? {
      let saved = self.remaining
      if self.uint32() == FlightBytes.missing { return .some(nil) }
      self.remaining = saved
      return self.bytes().map { .some($0) }
    }

    mutating func string() -> String? {
      self.bytes().flatMap { String(validating: $0, as: UTF8.self) }
    }

    /// A count, then that many strings.
    mutating func strings() -> [String]? {
      guard let count = self.uint32(), count <= self.remaining.count else { return nil }
      var strings: [String] = []
      for _ in 0..<count {
        guard let string = self.string() else { return nil }
        strings.append(string)
      }
      return strings
    }

    /// Everything left.
    mutating func rest() -> [UInt8] {
      defer { self.remaining = [] }
      return Array(self.remaining)
    }
  }
}
