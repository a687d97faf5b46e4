import CPatchbayABI

/// Reads values in the value encoding from bytes the host gave: an action for `reduce`, a state
/// for `create` after a swap. Every read returns nil (or false) on bytes it cannot take, and
/// `error` then says what and where.
///
///     var input = WireReader(bytes, count)
///     guard let (name, fields) = input.case(), name == "setStep", fields == 1,
///       let label = input.label(), label == "by", let by = input.value(Int64.self)
///     else { return nil }
///     return .setStep(by: by)
public struct WireReader {
  var cursor: pb_reader

  public init(_ bytes: UnsafePointer<UInt8>?, _ count: Int) {
    cursor = pb_reader(bytes: bytes, length: count, offset: 0, error: nil)
  }

  /// What was wrong with the bytes, once a read failed.
  public var error: String {
    guard let text = cursor.error else { return "bad bytes" }
    return String(cString: text) + " at byte \(cursor.offset)"
  }

  /// Whether every byte was read.
  public var atEnd: Bool { cursor.offset == cursor.length }

  /// The tag of the next value (PB_VALUE_…), not read.
  public mutating func peek() -> UInt8? {
    var tag: UInt8 = 0
    return pb_peek_tag(&cursor, &tag) == 0 ? tag : nil
  }

  /// A case's name and how many labelled fields follow.
  public mutating func `case`() -> (name: WireName, fields: Int)? {
    var name: UnsafePointer<CChar>?
    var length = 0
    var count: UInt32 = 0
    guard pb_read_case(&cursor, &name, &length, &count) == 0, let name else { return nil }
    return (WireName(name, length), Int(count))
  }

  /// A record's field count.
  public mutating func record() -> Int? {
    var count: UInt32 = 0
    return pb_read_record(&cursor, &count) == 0 ? Int(count) : nil
  }

  /// A list's item count.
  public mutating func list() -> Int? {
    var count: UInt32 = 0
    return pb_read_list(&cursor, &count) == 0 ? Int(count) : nil
  }

  /// The name (or label) of the next field.
  public mutating func label() -> WireName? {
    var name: UnsafePointer<CChar>?
    var length = 0
    guard pb_read_name(&cursor, &name, &length) == 0, let name else { return nil }
    return WireName(name, length)
  }

  /// The next value, as `Value`.
  public mutating func value<Value: WireValue>(_ type: Value.Type = Value.self) -> Value? {
    Value.read(from: &self)
  }

  /// Reads the next value into `target`: false, with `target` as it was, if it is not one.
  public mutating func read<Value: WireValue>(into target: inout Value) -> Bool {
    guard let value = Value.read(from: &self) else { return false }
    target = value
    return true
  }

  /// Steps over the next value, whatever it is.
  public mutating func skip() -> Bool { pb_skip_value(&cursor) == 0 }

  public mutating func int() -> Int64? {
    var value: Int64 = 0
    return pb_read_int(&cursor, &value) == 0 ? value : nil
  }

  public mutating func double() -> Double? {
    var value = 0.0
    return pb_read_double(&cursor, &value) == 0 ? value : nil
  }

  public mutating func bool() -> Bool? {
    var value: Int32 = 0
    return pb_read_bool(&cursor, &value) == 0 ? value != 0 : nil
  }

  public mutating func nil_() -> Bool { pb_read_nil(&cursor) == 0 }

  public mutating func string() -> String? {
    var text: UnsafePointer<CChar>?
    var length = 0
    guard pb_read_string(&cursor, &text, &length) == 0 else { return nil }
    guard let text, length > 0 else { return "" }
    return text.withMemoryRebound(to: UInt8.self, capacity: length) {
      String(decoding: UnsafeBufferPointer(start: $0, count: length), as: UTF8.self)
    }
  }
}

/// A name read from the bytes (a case's, a field's), borrowed from them; compared with a
/// literal in a `switch` (`case "count":`) or with `==`.
public struct WireName {
  let bytes: UnsafePointer<CChar>
  let count: Int

  init(_ bytes: UnsafePointer<CChar>, _ count: Int) { (self.bytes, self.count) = (bytes, count) }

  public static func == (name: WireName, literal: StaticString) -> Bool {
    guard name.count == literal.utf8CodeUnitCount else { return false }
    let other = UnsafeRawPointer(literal.utf8Start).assumingMemoryBound(to: CChar.self)
    for index in 0..<name.count where name.bytes[index] != other[index] { return false }
    return true
  }

  public static func ~= (literal: StaticString, name: WireName) -> Bool { name == literal }

  /// The name as a String, for a message.
  public var text: String {
    bytes.withMemoryRebound(to: UInt8.self, capacity: count) {
      String(decoding: UnsafeBufferPointer(start: $0, count: count), as: UTF8.self)
    }
  }
}
