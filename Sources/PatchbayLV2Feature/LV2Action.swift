import PatchbayEncoding
import PatchbayLV2
import PatchbayLoader

/// What an LV2 feature's reducer does: set one control, apply a preset's controls, or put
/// every control back to its default.
///
/// ```text
/// set(port: "gain", value: -6)      the control clamped to its range
/// preset(name: "Live")              the preset's port values (`patchbay lv2 info URI` lists them)
/// reset                             every control to its default
/// ```
///
/// An instrument's instances also get `midi(…)`, the app's MIDI as actions: recorded and
/// replayed, changing no control.
enum LV2Action: Equatable {
  case set(port: String, value: Double)
  case preset(name: String)
  case reset
  /// A MIDI message the app delivers to a listening instance (`midi(noteOn(…))`): the
  /// processor plays it; the reducer changes nothing.
  case midi(WireValue)

  /// What `inspect` lists.
  static let declared: [ActionInfo] = [
    ActionInfo(
      name: "set", summary: "Sets a control input, clamped to its range.",
      fields: [.init(name: "port", type: "string"), .init(name: "value", type: "double")]),
    ActionInfo(
      name: "preset", summary: "Sets the controls a preset of the plugin names.",
      fields: [.init(name: "name", type: "string")]),
    ActionInfo(name: "reset", summary: "Sets every control to its default.", fields: []),
  ]

  /// The action a value encodes; throws, in one line, what is wrong with it.
  init(_ value: WireValue) throws(LV2Error) {
    guard case .case(let name, _) = value else {
      throw LV2Error(
        "an action is a case such as set(port: \"gain\", value: -6), not \(LV2Controls.a(value))")
    }
    switch name {
    case "set":
      guard case .string(let port)? = value[field: "port"] else {
        throw LV2Error("set needs port: the symbol of a control, as a string")
      }
      guard let number = value[field: "value"].flatMap(LV2Controls.number) else {
        throw LV2Error("set needs value: a finite number")
      }
      self = .set(port: port, value: number)
    case "preset":
      guard case .string(let preset)? = value[field: "name"] else {
        throw LV2Error("preset needs name: a preset's label, as a string")
      }
      self = .preset(name: preset)
    case "reset":
      self = .reset
    case "midi":
      self = .midi(value)
    default:
      throw LV2Error("'\(name)' is not an action of an LV2 feature: use set, preset or reset")
    }
  }

  /// The encoded value.
  var value: WireValue {
    switch self {
    case .set(let port, let value):
      .action("set", ("port", .string(port)), ("value", .double(value)))
    case .preset(let name): .action("preset", ("name", .string(name)))
    case .reset: .case("reset", [])
    case .midi(let value): value
    }
  }
}
