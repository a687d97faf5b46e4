import CPatchbayABI

/// A type a state field or an action field can have: it writes itself in the value encoding
/// and reads itself back. Int, Double, Bool, String, arrays and optionals of them are ones;
/// a type of your own conforms by writing the two functions:
///
///     struct Note: WireValue {
///       var pitch = 60
///       func write(to out: inout WireWriter) { out.int(Int64(pitch)) }
///       static func read(from input: inout WireReader) -> Note? {
///         input.int().map { Note(pitch: Int($0)) }
///       }
///       static let wireType: StaticString = "int"
///     }
public protocol WireValue {
  func write(to out: inout WireWriter)
  static func read(from input: inout WireReader) -> Self?
  /// The type's name in an action's field list (`inspect` shows it): "int", "double", "bool",
  /// "string", "list".
  static var wireType: StaticString { get }
}

/// Int is 32 bits in wasm32: an int past its range reads as nil (a decode error), never a trap.
/// A field that must hold what a native (64-bit) Int holds is an Int64.
extension Int: WireValue {
  public func write(to out: inout WireWriter) { out.int(Int64(self)) }
  public static func read(from input: inout WireReader) -> Int? {
    input.int().flatMap { Int(exactly: $0) }
  }
  public static var wireType: StaticString { "int" }
}

extension Int64: WireValue {
  public func write(to out: inout WireWriter) { out.int(self) }
  public static func read(from input: inout WireReader) -> Int64? { input.int() }
  public static var wireType: StaticString { "int" }
}

extension Int32: WireValue {
  public func write(to out: inout WireWriter) { out.int(Int64(self)) }
  public static func read(from input: inout WireReader) -> Int32? {
    input.int().flatMap { Int32(exactly: $0) }
  }
  public static var wireType: StaticString { "int" }
}

extension Double: WireValue {
  public func write(to out: inout WireWriter) { out.double(self) }
  /// A double, or an int read as one (as the Swift SDK reads a state whose field changed type).
  public static func read(from input: inout WireReader) -> Double? {
    if input.peek() == UInt8(ascii: "i") { return input.int().map { Double($0) } }
    return input.double()
  }
  public static var wireType: StaticString { "double" }
}

extension Bool: WireValue {
  public func write(to out: inout WireWriter) { out.bool(self) }
  public static func read(from input: inout WireReader) -> Bool? { input.bool() }
  public static var wireType: StaticString { "bool" }
}

extension String: WireValue {
  public func write(to out: inout WireWriter) { out.string(self) }
  public static func read(from input: inout WireReader) -> String? { input.string() }
  public static var wireType: StaticString { "string" }
}

extension Array: WireValue where Element: WireValue {
  public func write(to out: inout WireWriter) {
    out.list(count)
    for element in self { element.write(to: &out) }
  }
  public static func read(from input: inout WireReader) -> [Element]? {
    guard let count = input.list() else { return nil }
    var elements: [Element] = []
    for _ in 0..<count {
      guard let element = Element.read(from: &input) else { return nil }
      elements.append(element)
    }
    return elements
  }
  public static var wireType: StaticString { "list" }
}

extension Optional: WireValue where Wrapped: WireValue {
  public func write(to out: inout WireWriter) {
    if let self { self.write(to: &out) } else { out.nil_() }
  }
  /// `.some(nil)` for a nil value; nil for bytes that are neither nil nor a `Wrapped`.
  public static func read(from input: inout WireReader) -> Wrapped?? {
    if input.peek() == UInt8(ascii: "n") { return input.nil_() ? .some(.none) : nil }
    return Wrapped.read(from: &input).map { .some($0) }
  }
  /// The wrapped type's: a field that may be nil is shown as the type it holds.
  public static var wireType: StaticString { Wrapped.wireType }
}
