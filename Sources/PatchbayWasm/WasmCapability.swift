/// A service a WebAssembly plugin may be granted: the host's imports that make it up, which a
/// module has only when its source asks for the service (`PB_SERVICE_MIDI`, …: wasm-cc links
/// the service's guest half then). What a wasm plugin may do is exactly what it imports, so
/// an app's config grants each one by name, and the load refuses a module that imports one it
/// was not granted, naming the line to add:
///
/// ```toml
/// [sandbox]
/// "Keys.wasm" = ["midi", "navigation"]
/// ```
///
/// Every plugin has the rest: writing its results, sending actions to itself (now, or after a
/// delay), reporting an error, logging, and the clock.
public enum WasmCapability: String, CaseIterable, Sendable {
  /// "patchbay.midi/1": the app's MIDI input, as actions.
  case midi
  /// "patchbay.navigation/1": pushing, presenting, popping, dismissing features.
  case navigation
  /// "patchbay.shared/1": state other features publish and hold.
  case shared
  /// "patchbay.functions/1": other plugins' functions, native code among them.
  case functions

  /// The names of its imports, in module "patchbay".
  var imports: [String] {
    switch self {
    case .midi: ["midi_listen"]
    case .navigation: ["navigate"]
    case .shared: ["shared_publish", "shared_subscribe", "shared_hold", "shared_write"]
    case .functions: ["resolve"]
    }
  }

  /// The capability whose import `module`.`name` is; nil for one every plugin has.
  static func of(module: String, name: String) -> WasmCapability? {
    guard module == "patchbay" else { return nil }
    return Self.allCases.first { $0.imports.contains(name) }
  }
}
