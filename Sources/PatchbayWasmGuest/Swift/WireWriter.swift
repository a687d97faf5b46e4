import CPatchbayABI

/// Writes values in the value encoding (patchbay/value.h) to a writer the host gave: a state
/// for `snapshot`, an action for `send`. The `@Feature` macro writes the calls; by hand:
///
///     var out = WireWriter(writer)
///     out.record(2)
///     out.field("count", 3)
///     out.field("step", 1)
///     // {count: 3, step: 1}
///
/// A full writer makes `failed` true, and every later call does nothing.
public struct WireWriter {
  let writer: UnsafePointer<pb_writer>
  /// True once the writer was full: what was written is cut short.
  public private(set) var failed = false

  public init(_ writer: UnsafePointer<pb_writer>) { self.writer = writer }

  mutating func check(_ result: Int32) { if result != 0 { failed = true } }

  /// A record of `count` named fields: `field` each of them next.
  public mutating func record(_ count: Int) {
    check(pb_write_record(writer, UInt32(count)))
  }

  /// A case (an action) named `name` with `count` labelled fields: `field` each of them next.
  public mutating func `case`(_ name: StaticString, _ count: Int) {
    check(pb_write_case(writer, name.cString, UInt32(count)))
  }

  /// A list of `count` values: `value` each of them next.
  public mutating func list(_ count: Int) { check(pb_write_list(writer, UInt32(count))) }

  /// One field of a record or a case: its name, then its value.
  public mutating func field<Value: WireValue>(_ name: StaticString, _ value: Value) {
    check(pb_write_name(writer, name.cString))
    value.write(to: &self)
  }

  /// A value on its own (a list's item, or the whole state).
  public mutating func value<Value: WireValue>(_ value: Value) { value.write(to: &self) }

  public mutating func int(_ value: Int64) { check(pb_write_int(writer, value)) }
  public mutating func double(_ value: Double) { check(pb_write_double(writer, value)) }
  public mutating func bool(_ value: Bool) { check(pb_write_bool(writer, value ? 1 : 0)) }
  public mutating func nil_() { check(pb_write_nil(writer)) }

  public mutating func string(_ value: String) {
    var copy = value
    copy.withUTF8 { bytes in
      check(
        bytes.withMemoryRebound(to: CChar.self) {
          pb_write_string(writer, $0.baseAddress, $0.count)
        })
    }
  }

  /// Text as it is, for `render`: UTF-8 with no tag.
  public mutating func text(_ value: String) {
    var copy = value
    copy.withUTF8 { bytes in
      guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
      if writer.pointee.write(writer.pointee.context, base, bytes.count) != bytes.count {
        failed = true
      }
    }
  }
}

extension StaticString {
  /// The literal as a C string. A string literal is stored with a NUL after it, which
  /// `patchbay.h`'s `const char *` fields and `pb_write_name` need.
  var cString: UnsafePointer<CChar> {
    UnsafeRawPointer(utf8Start).assumingMemoryBound(to: CChar.self)
  }

  /// Whether the two literals have the same text (two sites' literals may be two copies).
  func same(as other: StaticString) -> Bool {
    UnsafeBufferPointer(start: utf8Start, count: utf8CodeUnitCount).elementsEqual(
      UnsafeBufferPointer(start: other.utf8Start, count: other.utf8CodeUnitCount))
  }

  /// Whether `text` has the literal's bytes. (String's `==` compares canonical equivalence,
  /// which would link Unicode's normalization tables into every module.)
  func same(as text: String) -> Bool {
    UnsafeBufferPointer(start: utf8Start, count: utf8CodeUnitCount).elementsEqual(text.utf8)
  }
}
