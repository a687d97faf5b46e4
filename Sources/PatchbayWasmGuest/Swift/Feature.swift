/// A feature written in Embedded Swift, built as a WebAssembly plugin: a state, actions, and a
/// reducer, as a native feature is. `@Feature` writes the rest (the action list, and the value
/// encoding of the state and the actions, which Embedded Swift cannot derive with Codable):
///
///     import PatchbayEmbedded
///
///     @Feature
///     struct Counter {
///       static let id: StaticString = "dev.patchbay.counter"
///       static let summary: StaticString = "Counts up and down by a step."
///
///       struct State { var count = 0; var step = 1 }
///
///       enum Action {
///         /// Adds the step
///         case increment
///         /// Sets the step
///         case setStep(by: Int)
///       }
///
///       func reduce(into state: inout State, action: Action) -> Effect<Action> {
///         switch action {
///         case .increment: state.count += state.step
///         case .setStep(let step): state.step = step
///         }
///         return .none
///       }
///
///       static func render(_ state: State) -> String { "Count: \(state.count)" }
///     }
///
///     #plugin(id: "dev.patchbay.counter-plugin", name: "Counter", version: "1.0.0",
///       features: [Counter.self])
///
/// `Sources/PatchbayWasmGuest/wasm-swiftc -o Counter.wasm Counter.swift` builds it.
public protocol Feature {
  associatedtype State
  associatedtype Action

  /// Reverse-DNS, unique among the app's plugins: "dev.patchbay.counter".
  static var id: StaticString { get }
  /// For people: `@Feature` writes the type's name.
  static var name: StaticString { get }
  /// One line for people.
  static var summary: StaticString { get }
  /// Bumped when the state's encoding changes.
  static var stateSchemaVersion: UInt32 { get }
  /// Written by `@Feature` from `enum Action`.
  static var actions: [ActionSchema] { get }
  /// The state a new instance starts from: `State()` unless you write it.
  static var initialState: State { get }
  /// Whether it reads states of other schemas (``migrate(from:_:)``): `@Feature` sets it when
  /// the feature writes `migrate`.
  static var migrates: Bool { get }
  /// A state of schema `schemaVersion` (another build's, across a swap), read from `old` into
  /// this build's; nil when it cannot be read. A record is read field by field:
  ///
  ///     static func migrate(from schemaVersion: UInt32, _ old: inout WireReader) -> State? {
  ///       guard schemaVersion == 2, let count = old.record() else { return nil }
  ///       var state = State()
  ///       for _ in 0..<count {
  ///         guard let label = old.label() else { return nil }
  ///         switch label {
  ///         case "value": guard let value = old.int() else { return nil }; state.count = value
  ///         default: guard old.skip() else { return nil }
  ///         }
  ///       }
  ///       return state
  ///     }
  static func migrate(from schemaVersion: UInt32, _ old: inout WireReader) -> State?
  /// The MIDI channels whose messages the reducer hears as `midi(…)` actions (see
  /// ``MIDIMessage``). Default: none.
  static var midiChannels: MIDIChannels { get }
  /// Shared values it reads, each as an action (see ``SharedSubscription``). Default: none.
  static var subscriptions: [SharedSubscription] { get }
  /// Values it publishes for other features, made from the state after `create` and after
  /// every action (see ``SharedValue``). Default: none.
  static func shared(_ state: State) -> [SharedValue]
  /// Functions of other plugins it calls (see ``FunctionImport``). Default: none.
  static var imports: [FunctionImport] { get }
  /// Written by `@Feature`: the state's `@Shared` fields (see ``Shared(_:)``).
  static var held: [SharedHeld<State>] { get }

  init()
  func reduce(into state: inout State, action: Action) -> Effect<Action>
  /// The state as text for people (the view).
  static func render(_ state: State) -> String

  /// Written by `@Feature`: the state as a record of its stored properties, in order.
  static func write(_ state: State, to out: inout WireWriter)
  /// Written by `@Feature`: reads a record into `state` by field name, as the native SDK does
  /// across a swap (a field the record lacks keeps its value; one it has and State lacks is
  /// skipped; an int is read into a Double). nil when it is not such a record, else the state.
  static func read(_ state: State, from input: inout WireReader) -> State?
  /// Written by `@Feature`: an action as a case.
  static func write(_ action: Action, to out: inout WireWriter)
  /// Written by `@Feature`: the case back as an action, or nil when it is none of them.
  static func read(action input: inout WireReader) -> Action?
}

extension Feature {
  public static var summary: StaticString { "" }
  public static var stateSchemaVersion: UInt32 { 1 }
  public static var migrates: Bool { false }
  public static func migrate(from schemaVersion: UInt32, _ old: inout WireReader) -> State? { nil }
  public static var midiChannels: MIDIChannels { .none }
  public static var subscriptions: [SharedSubscription] { [] }
  public static func shared(_ state: State) -> [SharedValue] { [] }
  public static var imports: [FunctionImport] { [] }
  public static var held: [SharedHeld<State>] { [] }
}

/// Writes a feature's action list and value encoding from its `State` and `enum Action`
/// (see ``Feature``), and adds the conformance.
@attached(
  member,
  names: named(name), named(actions), named(initialState), named(migrates), named(write),
  named(read), named(held))
@attached(extension, conformances: Feature)
public macro Feature() = #externalMacro(module: "PatchbayMacros", type: "EmbeddedFeatureMacro")

/// The plugin's entry point, `patchbay_plugin_entry`, describing `features`.
@freestanding(declaration, names: named(patchbay_plugin_entry))
public macro plugin(
  id: StaticString, name: StaticString, version: StaticString, features: [any Feature.Type]
) =
  #externalMacro(module: "PatchbayMacros", type: "EmbeddedPluginMacro")
