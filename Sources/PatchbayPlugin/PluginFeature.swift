import Patchbay
import PatchbayEncoding

/// A reducer that a plugin exports through the C ABI.
///
/// Write an ordinary ``Reducer`` with `Codable` state and actions, give it an id, mark it
/// `@Feature` (which derives the rest: the action list, the conformance, the start state) and
/// list it in `#plugin`:
///
/// ```swift
/// @Feature
/// struct Counter {
///   static let id = "dev.patchbay.counter"
///
///   struct State: Codable, Equatable { var count = 0, step = 1 }
///   enum Action: Codable, Equatable {
///     /// Adds the step
///     case increment
///     case setStep(by: Int)
///   }
///
///   func reduce(into state: inout State, action: Action) -> Effect<Action> { … }
/// }
///
/// #plugin(
///   id: "dev.patchbay.counter-plugin", name: "Counter", version: "1.0.0",
///   features: [Counter.self])
/// ```
///
/// The SDK encodes state and actions with ``WireValueEncoder`` (the ABI's value encoding),
/// parses and formats the text form of actions (`setStep(by: 5)`), runs effects inside the
/// plugin and sends their actions back through the host.
public protocol PluginFeature: Reducer, SendableMetatype
where State: Codable, Action: Codable & SendableMetatype {
  /// Reverse-DNS id, unique among loaded plugins: `"dev.patchbay.counter"`.
  static var id: String { get }
  /// The name people see. Default: the type's name.
  static var name: String { get }
  /// One line for people. Default: empty.
  static var summary: String { get }
  /// The version of the state's encoding; bump it when the state changes shape, and
  /// implement ``migrate(from:_:)``. Default: 1.
  static var schemaVersion: UInt32 { get }
  /// The actions, for `inspect`, the CLI and parents.
  static var actions: [ActionSchema] { get }
  /// The state a new instance starts with.
  static var initialState: State { get }
  /// The text view of a state. Default: the state as pretty JSON.
  static func render(_ state: State) -> String
  /// Whether ``migrate(from:_:)`` is implemented. Default: false.
  static var migrates: Bool { get }
  /// Turns a snapshot of an older schema into one of ``schemaVersion``; throw for schemas it
  /// cannot migrate.
  static func migrate(from schemaVersion: UInt32, _ state: WireValue) throws -> WireValue
  /// The MIDI channels whose messages the reducer hears as `midi(…)` actions (see
  /// ``MIDIMessage``): bit 0 is channel 1, `0xFFFF` all. Default: 0, none.
  static var midiChannels: UInt16 { get }
  /// Functions of other plugins this feature calls (see ``FunctionImport``). Default: none.
  static var imports: [FunctionImport] { get }
  /// Values it publishes for other features, made from the state after `create` and after
  /// every action (see ``SharedValue``). Default: none.
  static func shared(_ state: State) -> [SharedValue]
  /// Shared values it reads, each as an action (see ``SharedSubscription``). Default: none.
  static var subscriptions: [SharedSubscription] { get }
  /// The long-lived effects `state` calls for, started by the new code after a swap, a
  /// rollback or a restart after a crash: the lifecycle hook, as TCA's `.task` action is.
  ///
  /// ```swift
  /// static func resume(_ state: State) -> Effect<Action>? {
  ///   state.isRunning ? .run { send in … }.cancellable(id: CancelID.tick) : Effect.none
  /// }
  /// ```
  ///
  /// Default: nil. The old code's effects then go on across a swap, their actions reaching the
  /// new code (docs/SWAP.md, "Effects across a swap"). Return an effect (`.none` included) to
  /// have the old ones cancelled and yours started instead: for effects whose code you edit.
  static func resume(_ state: State) -> Effect<Action>?
  /// Fields of `State` renamed since an earlier build, new name to old, as dotted paths: a
  /// swap from that build reads the old field into the new one (docs/SWAP.md, "State across a
  /// swap"). Without the mark, a field gone and a field of its kind new beside it is refused
  /// as a possible rename.
  ///
  /// ```swift
  /// static let renamedStateFields = ["title": "label", "timer.elapsed": "timer.ticks"]
  /// ```
  static var renamedStateFields: [String: String] { get }
  /// The start values of the structs inside `State`, for reading a snapshot of an earlier build
  /// of them: a field added to a nested struct, or to a collection's element, takes its value
  /// from here. `@Feature` lists every struct declared inside the feature that `T()` makes.
  /// Default: none.
  static var stateTemplates: [StateTemplate] { get }

  init()
}

extension PluginFeature {
  /// The type's name. `_typeName` reads it from the type's metadata; `String(describing:)`
  /// would first ask the runtime whether the metatype is printable in other ways, and each
  /// of those failed casts scans the conformances of every loaded image, so a host loading P
  /// plugins paid O(P) a plugin, O(P²) in all (docs/BENCHMARKS.md, "Growth").
  public static var name: String { _typeName(Self.self, qualified: false) }
  public static var summary: String { "" }
  public static var schemaVersion: UInt32 { 1 }
  public static var migrates: Bool { false }
  public static var midiChannels: UInt16 { 0 }
  public static var imports: [FunctionImport] { [] }
  /// Inlinable: the SDK asks after every action, and a feature that shares nothing then
  /// asks nothing (the call and the empty array it returned were 5% of a send through the
  /// C ABI).
  @inlinable public static func shared(_ state: State) -> [SharedValue] { [] }
  public static var subscriptions: [SharedSubscription] { [] }
  public static func resume(_ state: State) -> Effect<Action>? { nil }
  public static var renamedStateFields: [String: String] { [:] }
  public static var stateTemplates: [StateTemplate] { [] }

  public static func render(_ state: State) -> String {
    (try? WireValueEncoder().encode(state).json(pretty: true)) ?? "\(state)"
  }

  public static func migrate(from schemaVersion: UInt32, _ state: WireValue) throws -> WireValue {
    throw PluginFeatureError(
      "\(Self.id) cannot migrate state from schema \(schemaVersion) to \(Self.schemaVersion)"
    )
  }
}

/// A failure inside a plugin feature, reported to the host as one line.
public struct PluginFeatureError: Error, CustomStringConvertible {
  public let description: String

  public init(_ description: String) {
    self.description = description
  }
}
