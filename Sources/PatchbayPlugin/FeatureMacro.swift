/// Derives a feature's `actions` from its `enum Action`, so the list cannot drift from the
/// enum: each case's name, its fields with their types (labels, or `_0`, `_1`, … for unlabeled
/// ones, as the value encoding names them), the doc comment above the case as its summary, and
/// `@SentBy(…)` for cases people should not send.
///
/// ```swift
/// @Feature
/// public struct Metronome: AudioFeature {
///   public enum Action: Codable, Equatable, Sendable {
///     /// Starts on beat 1 at the next frame
///     case start
///     /// Beats per minute, 20 to 400
///     case setTempo(bpm: Double)
///     /// A beat played
///     @SentBy(.processor) case beat(index: Int)
///   }
///   …
/// }
/// // actions: start, setTempo(bpm: double), beat(index: int) (sent by the processor)
/// ```
///
/// It also lists the `@Import` functions in `imports`, sets `migrates` when the feature
/// implements `static func migrate(from:_:)`, starts it at `State()` unless it writes its own
/// `initialState`, and adds the `PluginFeature` conformance unless it is written (an
/// `AudioFeature` has it). A feature that writes its own `actions` or `migrates` beside
/// `@Feature` is refused at compile time.
///
/// For an `AudioFeature` it derives the realtime half's glue: from the `@SentBy(.processor)`
/// cases, `event(_:at:)` (what the processor emits: `period.emit(Self.event(.beat(index: n),
/// at: frame))`) and `action(for:)` (what the host turns it back into); from a nested `struct
/// Parameters`, `parameters(for:)`, which copies the state's properties of the same names.
/// Write either yourself and it is not derived.
@attached(
  member,
  names: named(actions), named(imports), named(migrates), named(initialState), named(action),
  named(event), named(parameters), named(stateTemplates))
@attached(extension, conformances: PluginFeature)
public macro Feature() = #externalMacro(module: "PatchbayMacros", type: "FeatureMacro")

/// Marks an action people should not send: the host sends it (`midi(…)`, shared state), the
/// feature's processor does, or its own effects. `inspect` shows it as such.
@attached(peer)
public macro SentBy(_ sender: ActionSchema.Sender) =
  #externalMacro(module: "PatchbayMacros", type: "NoOpPeerMacro")
