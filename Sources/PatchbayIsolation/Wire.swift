/// The bytes of a message between the host and an isolated plugin's process: little-endian
/// integers and length-prefixed byte strings, written into and read from the channel's shared
/// memory in place (no copy through a buffer of its own).
///
/// ```swift
/// var out = WireWriter(into: pb_channel_request(channel), capacity: capacity)
/// out.put(IsolatedCall.reduce.rawValue); out.put(instanceID); out.put(bytes: action)
/// var reader = WireReader(pb_channel_reply(channel), length: replyLength)
/// let status = try reader.u32()
/// ```
package struct WireWriter {
  let base: UnsafeMutableRawPointer
  let capacity: Int
  package private(set) var count = 0
  /// Set when a write did not fit: the message is incomplete and must not be sent.
  package private(set) var overflowed = false

  package init(into base: UnsafeMutableRawPointer, capacity: Int) {
    self.base = base
    self.capacity = capacity
  }

  private mutating func reserve(_ size: Int) -> UnsafeMutableRawPointer? {
    guard !self.overflowed, self.count + size <= self.capacity else {
      self.overflowed = true
      return nil
    }
    defer { self.count += size }
    return self.base + self.count
  }

  package mutating func put<T: FixedWidthInteger>(_ value: T) {
    self.reserve(MemoryLayout<T>.size)?.storeBytes(of: value.littleEndian, as: T.self)
  }

  package mutating func put(bytes: UnsafeRawBufferPointer) {
    self.put(UInt32(bytes.count))
    guard let target = self.reserve(bytes.count), let source = bytes.baseAddress else { return }
    target.copyMemory(from: source, byteCount: bytes.count)
  }

  package mutating func put(bytes: [UInt8]) {
    bytes.withUnsafeBytes { self.put(bytes: $0) }
  }

  package mutating func put(_ text: String) {
    var text = text
    text.withUTF8 { self.put(bytes: UnsafeRawBufferPointer($0)) }
  }

  /// An optional byte string: a flag, then the bytes.
  package mutating func put(optional bytes: [UInt8]?) {
    self.put(UInt8(bytes == nil ? 0 : 1))
    if let bytes { self.put(bytes: bytes) }
  }
}

/// Reads what a ``WireWriter`` wrote; every read checks the length, so a torn or hostile
/// message throws instead of reading past it.
package struct WireReader {
  let base: UnsafeRawPointer
  let length: Int
  private var offset = 0

  package init(_ base: UnsafeRawPointer, length: Int) {
    self.base = base
    self.length = length
  }

  package struct Truncated: Error, CustomStringConvertible {
    package init() {}
    package var description: String { "a message from the other process is cut short" }
  }

  private mutating func take(_ size: Int) throws(Truncated) -> UnsafeRawPointer {
    guard size >= 0, self.offset + size <= self.length else { throw Truncated() }
    defer { self.offset += size }
    return self.base + self.offset
  }

  package mutating func read<T: FixedWidthInteger>(_: T.Type = T.self) throws(Truncated) -> T {
    T(littleEndian: try self.take(MemoryLayout<T>.size).loadUnaligned(as: T.self))
  }

  package mutating func bytes() throws(Truncated) -> [UInt8] {
    let count = Int(try self.read(UInt32.self))
    return Array(UnsafeRawBufferPointer(start: try self.take(count), count: count))
  }

  package mutating func string() throws(Truncated) -> String {
    String(decoding: try self.bytes(), as: UTF8.self)
  }

  package mutating func optionalBytes() throws(Truncated) -> [UInt8]? {
    try self.read(UInt8.self) == 0 ? nil : try self.bytes()
  }

  package var isAtEnd: Bool { self.offset == self.length }
}
