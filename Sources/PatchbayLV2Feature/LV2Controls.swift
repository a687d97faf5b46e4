import PatchbayEncoding
import PatchbayLV2

/// An LV2 plugin's control inputs as a feature's state: a record with a `double` field per
/// control, named by the port's symbol, in port order.
///
/// ```swift
/// let controls = LV2Controls(eq)            // the x42 EQ's 60-odd controls
/// var values = controls.defaults
/// values[controls.index(of: "gain")!] = -6
/// controls.state(values).bytes              // {enable: 1.0, gain: -6.0, …}, encoded
/// try controls.values(from: bytes)          // back, each clamped to its port's range
/// ```
///
/// Reading a state is forgiving where a swap needs it to be: a field this plugin lacks is
/// ignored, and a control the state lacks keeps its default (the state of another version
/// of the plugin). A field that is not a number, or bytes that are not a record, are an
/// error naming the field or the byte.
struct LV2Controls: Sendable {
  /// The control input ports, in port order.
  let ports: [LV2Port]

  init(_ info: LV2PluginInfo) {
    self.ports = info.ports.filter { $0.kind == .control && $0.isInput }
  }

  /// Each control's default (0 where the plugin gives none).
  var defaults: [Double] {
    self.ports.map { $0.defaultValue.isNaN ? 0 : Self.shortest($0.defaultValue) }
  }

  /// Where control `symbol` is in the values; nil when the plugin has no such control input.
  func index(of symbol: String) -> Int? {
    self.ports.firstIndex { $0.symbol == symbol }
  }

  /// `value` clamped to control `index`'s range.
  func clamped(_ value: Double, at index: Int) -> Double {
    let port = self.ports[index]
    var value = value
    if !port.minimum.isNaN { value = max(value, Double(port.minimum)) }
    if !port.maximum.isNaN { value = min(value, Double(port.maximum)) }
    return value
  }

  /// The state record of `values`.
  func state(_ values: [Double]) -> WireValue {
    .record(zip(self.ports, values).map { WireValue.Field($0.symbol, .double($1)) })
  }

  /// The values a state's bytes hold; throws naming the byte or the field that is wrong.
  func values(from bytes: [UInt8]) throws(LV2Error) -> [Double] {
    let decoded: WireValue
    do { decoded = try WireValue(decoding: bytes) } catch {
      throw LV2Error("the state's bytes are not a value: \(error)")
    }
    guard case .record(let fields) = decoded else {
      throw LV2Error("the state is \(Self.a(decoded)), not a record of control values")
    }
    var values = self.defaults
    for field in fields {
      guard let index = self.index(of: field.name) else { continue }
      guard let number = Self.number(field.value) else {
        throw LV2Error(
          "the state's field '\(field.name)' is \(Self.a(field.value)), not a number")
      }
      values[index] = self.clamped(number, at: index)
    }
    return values
  }

  /// The field of a state that holds what the plugin keeps beyond its ports (Turtle): a name
  /// no port symbol can have.
  static let pluginStateField = "lv2:state"

  /// The plugin's own state a state's bytes hold, checked; nil when they hold none. Throws
  /// naming the field when it is not a string lilv reads as LV2 state.
  func pluginState(from bytes: [UInt8], of uri: String) throws(LV2Error) -> String? {
    guard let decoded = try? WireValue(decoding: bytes),
      let field = decoded[field: Self.pluginStateField]
    else { return nil }
    guard case .string(let turtle) = field else {
      throw LV2Error(
        "the state's field '\(Self.pluginStateField)' is \(Self.a(field)), not the plugin's "
          + "saved state as text")
    }
    try LV2Instance.checkState(turtle, of: uri)
    return turtle
  }

  /// The control inputs, for an error that names a wrong one.
  var symbols: String { self.ports.map(\.symbol).joined(separator: ", ") }

  /// "an int", "a string": a value's kind, as a sentence says it.
  static func a(_ value: WireValue) -> String {
    (value.kindName == "int" ? "an " : "a ") + value.kindName
  }

  /// An int or a finite double, as a double.
  static func number(_ value: WireValue) -> Double? {
    switch value {
    case .int(let int): Double(int)
    case .double(let double) where double.isFinite: double
    default: nil
    }
  }

  /// A float as the double its shortest digits spell: 0.84, not 0.8399999737739563.
  static func shortest(_ value: Float) -> Double {
    Double("\(value)") ?? Double(value)
  }
}
