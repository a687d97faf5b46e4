/// Why bytes are not a valid value: where, and what was found.
public struct WireDecodingError: Error, Equatable, CustomStringConvertible {
  /// The byte offset at which decoding failed.
  public let offset: Int
  /// What was wrong there.
  public let reason: String

  public init(offset: Int, reason: String) {
    self.offset = offset
    self.reason = reason
  }

  public var description: String { "byte \(self.offset): \(self.reason)" }
}

extension WireValue {
  /// The first byte of every encoded value (patchbay/value.h).
  public enum Tag: UInt8, Sendable {
    case `nil` = 0x6E  // n
    case bool = 0x62  // b
    case int = 0x69  // i
    case double = 0x66  // f
    case string = 0x73  // s
    case list = 0x6C  // l
    case record = 0x72  // r
    case `case` = 0x63  // c
  }

  /// The encoding of this value.
  public var bytes: [UInt8] {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(32)
    self.append(to: &bytes)
    return bytes
  }

  /// Appends the encoding of this value to `bytes`.
  public func append(to bytes: inout [UInt8]) {
    switch self {
    case .nil:
      bytes.append(Tag.nil.rawValue)
    case .bool(let value):
      bytes.append(Tag.bool.rawValue)
      bytes.append(value ? 1 : 0)
    case .int(let value):
      bytes.append(Tag.int.rawValue)
      appendLittleEndian(UInt64(bitPattern: value), to: &bytes)
    case .double(let value):
      bytes.append(Tag.double.rawValue)
      appendLittleEndian(value.bitPattern, to: &bytes)
    case .string(let value):
      bytes.append(Tag.string.rawValue)
      let utf8 = Array(value.utf8)
      appendLittleEndian(UInt32(utf8.count), to: &bytes)
      bytes.append(contentsOf: utf8)
    case .list(let values):
      bytes.append(Tag.list.rawValue)
      appendLittleEndian(UInt32(values.count), to: &bytes)
      for value in values { value.append(to: &bytes) }
    case .record(let fields):
      bytes.append(Tag.record.rawValue)
      appendFields(fields, to: &bytes)
    case .case(let name, let fields):
      bytes.append(Tag.case.rawValue)
      appendName(name, to: &bytes)
      appendFields(fields, to: &bytes)
    }
  }

  /// The name of the case `bytes` encode, read from the header alone (no decoding), or nil
  /// when they do not start with a case. Routing on an action's name costs nothing this way.
  public static func caseName(of bytes: [UInt8]) -> String? {
    guard bytes.count >= 3, bytes[0] == Tag.case.rawValue else { return nil }
    let length = Int(bytes[1]) | Int(bytes[2]) << 8
    guard bytes.count >= 3 + length else { return nil }
    return String(validating: bytes[3..<(3 + length)], as: UTF8.self)
  }

  /// Decodes exactly one value from `bytes`; trailing bytes are an error.
  public init(decoding bytes: some Collection<UInt8>) throws(WireDecodingError) {
    var reader = ByteReader(Array(bytes))
    self = try reader.value(depth: 0)
    guard reader.offset == reader.bytes.count else {
      throw WireDecodingError(
        offset: reader.offset,
        reason: "\(reader.bytes.count - reader.offset) unexpected byte(s) after the value"
      )
    }
  }

  /// Decodes exactly one value from borrowed memory.
  public init(decoding buffer: UnsafeRawBufferPointer) throws(WireDecodingError) {
    try self.init(decoding: Array(buffer.bindMemory(to: UInt8.self)))
  }
}

private func appendLittleEndian<T: FixedWidthInteger>(_ value: T, to bytes: inout [UInt8]) {
  withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
}

private func appendName(_ name: String, to bytes: inout [UInt8]) {
  let utf8 = Array(name.utf8.prefix(Int(UInt16.max)))
  appendLittleEndian(UInt16(utf8.count), to: &bytes)
  bytes.append(contentsOf: utf8)
}

private func appendFields(_ fields: [WireValue.Field], to bytes: inout [UInt8]) {
  appendLittleEndian(UInt32(fields.count), to: &bytes)
  for field in fields {
    appendName(field.name, to: &bytes)
    field.value.append(to: &bytes)
  }
}

/// A cursor over encoded bytes.
private struct ByteReader {
  let bytes: [UInt8]
  var offset = 0

  init(_ bytes: [UInt8]) { self.bytes = bytes }

  static let maximumDepth = 64

  mutating func value(depth: Int) throws(WireDecodingError) -> WireValue {
    guard depth <= Self.maximumDepth else {
      throw WireDecodingError(
        offset: self.offset, reason: "value nested deeper than \(Self.maximumDepth) levels"
      )
    }
    let tagOffset = self.offset
    let tagByte = try self.take(1, what: "a value tag").first!
    guard let tag = WireValue.Tag(rawValue: tagByte) else {
      throw WireDecodingError(
        offset: tagOffset,
        reason: "unknown value tag 0x\(String(tagByte, radix: 16, uppercase: true))"
          + " (expected one of n b i f s l r c)"
      )
    }
    switch tag {
    case .nil:
      return .nil
    case .bool:
      let byte = try self.take(1, what: "a bool").first!
      guard byte <= 1 else {
        throw WireDecodingError(offset: self.offset - 1, reason: "a bool must be 0 or 1")
      }
      return .bool(byte == 1)
    case .int:
      return .int(Int64(bitPattern: try self.integer(UInt64.self, what: "an int")))
    case .double:
      return .double(Double(bitPattern: try self.integer(UInt64.self, what: "a double")))
    case .string:
      let count = Int(try self.integer(UInt32.self, what: "a string length"))
      return .string(try self.text(count, what: "a string"))
    case .list:
      let count = try self.count(what: "a list")
      var values: [WireValue] = []
      values.reserveCapacity(count)
      for _ in 0..<count { values.append(try self.value(depth: depth + 1)) }
      return .list(values)
    case .record:
      return .record(try self.fields(depth: depth))
    case .case:
      let name = try self.name(what: "a case name")
      return .case(name, try self.fields(depth: depth))
    }
  }

  mutating func fields(depth: Int) throws(WireDecodingError) -> [WireValue.Field] {
    let count = try self.count(what: "a field count")
    var fields: [WireValue.Field] = []
    fields.reserveCapacity(count)
    var names: Set<String> = []
    for _ in 0..<count {
      let at = self.offset
      let name = try self.name(what: "a field name")
      // A value is a function of its fields' names: a second `count` would make JSON, diffs and
      // `expect` disagree about which one the state holds.
      let isNew = count <= 8 ? !fields.contains { $0.name == name } : names.insert(name).inserted
      guard isNew else {
        throw WireDecodingError(
          offset: at, reason: "the field name '\(name)' appears twice in one record or case")
      }
      fields.append(WireValue.Field(name, try self.value(depth: depth + 1)))
    }
    return fields
  }

  /// A u32 count, checked against the bytes left (each element takes at least one byte).
  mutating func count(what: String) throws(WireDecodingError) -> Int {
    let at = self.offset
    let count = Int(try self.integer(UInt32.self, what: what))
    guard count <= self.bytes.count - self.offset else {
      throw WireDecodingError(
        offset: at,
        reason: "\(what) of \(count) is more than the \(self.bytes.count - self.offset) bytes left"
      )
    }
    return count
  }

  mutating func name(what: String) throws(WireDecodingError) -> String {
    let count = Int(try self.integer(UInt16.self, what: "\(what) length"))
    return try self.text(count, what: what)
  }

  mutating func text(_ count: Int, what: String) throws(WireDecodingError) -> String {
    let at = self.offset
    let bytes = try self.take(count, what: what)
    guard let text = String(validating: bytes, as: UTF8.self) else {
      throw WireDecodingError(offset: at, reason: "\(what) is not valid UTF-8")
    }
    return text
  }

  mutating func integer<T: FixedWidthInteger>(_: T.Type, what: String) throws(WireDecodingError)
    -> T
  {
    let bytes = try self.take(MemoryLayout<T>.size, what: what)
    var value: T = 0
    for (index, byte) in bytes.enumerated() { value |= T(byte) << (8 * index) }
    return value
  }

  mutating func take(_ count: Int, what: String) throws(WireDecodingError) -> ArraySlice<UInt8> {
    guard count <= self.bytes.count - self.offset else {
      throw WireDecodingError(
        offset: self.offset,
        reason:
          "the bytes end inside \(what) (needs \(count), \(self.bytes.count - self.offset) left)"
      )
    }
    defer { self.offset += count }
    return self.bytes[self.offset..<self.offset + count]
  }
}
