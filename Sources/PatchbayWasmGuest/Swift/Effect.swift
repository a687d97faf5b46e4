/// What a reducer asks for after it changed the state: nothing, or actions sent back to the
/// feature, in order, once this reduce returns (the host queues them as it queues a native
/// feature's), or after a delay.
///
///     case .rampUp(let times):
///       return .send((1...times).flatMap { [Action.setStep(by: $0), .increment] })
///     case .incrementLater(let milliseconds):
///       return .send(.delayedIncrement, after: milliseconds)
///
/// Embedded Swift for wasm32 has no concurrency runtime, so there is no `.run { send in … }`:
/// an effect's work happens in the reducer, its results are the actions it sends, and a delay
/// is a timer the host holds (the import `patchbay.send_after`). The host counts a timer as a
/// running effect: `cancel_effects` stops it, and it goes on across a swap.
public struct Effect<Action> {
  let actions: [Action]
  let delayed: [(milliseconds: UInt32, action: Action)]

  /// No effect.
  public static var none: Effect { Effect(actions: [], delayed: []) }

  /// Sends `action` to the feature once this reduce returns.
  public static func send(_ action: Action) -> Effect { Effect(actions: [action], delayed: []) }

  /// Sends `actions`, in order, once this reduce returns.
  public static func send(_ actions: [Action]) -> Effect { Effect(actions: actions, delayed: []) }

  /// Sends `action` after `milliseconds` (0 to 2³²−1; beyond, the nearest).
  public static func send<Milliseconds: BinaryInteger>(
    _ action: Action, after milliseconds: Milliseconds
  ) -> Effect {
    let clamped = UInt32(clamping: milliseconds)
    return Effect(actions: [], delayed: [(clamped, action)])
  }

  /// Both effects: this one's sends, then `other`'s.
  public func merge(with other: Effect) -> Effect {
    Effect(actions: actions + other.actions, delayed: delayed + other.delayed)
  }
}
