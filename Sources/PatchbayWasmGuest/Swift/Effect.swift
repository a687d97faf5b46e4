import CPatchbayABI

/// What a reducer asks for after it changed the state: nothing, or actions sent back to the
/// feature, in order, once this reduce returns (the host queues them as it queues a native
/// feature's), or after a delay, cancellable by id; and it may ask the app to navigate.
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
  let delayed: [Delayed]
  /// Calls to the host's services, made once this reduce returns. Closures, so that a
  /// service's code (and its import) is in a module only when the plugin asks for it.
  let calls: [(UnsafePointer<pb_host>) -> Void]

  /// A send after a delay, filed under `id` when it has one.
  struct Delayed {
    let milliseconds: UInt32
    let action: Action
    var id: StaticString?
  }

  init(
    actions: [Action] = [], delayed: [Delayed] = [],
    calls: [(UnsafePointer<pb_host>) -> Void] = []
  ) {
    (self.actions, self.delayed, self.calls) = (actions, delayed, calls)
  }

  /// No effect.
  public static var none: Effect { Effect() }

  /// Sends `action` to the feature once this reduce returns.
  public static func send(_ action: Action) -> Effect { Effect(actions: [action]) }

  /// Sends `actions`, in order, once this reduce returns.
  public static func send(_ actions: [Action]) -> Effect { Effect(actions: actions) }

  /// Sends `action` after `milliseconds` (0 to 2³²−1; beyond, the nearest).
  public static func send<Milliseconds: BinaryInteger>(
    _ action: Action, after milliseconds: Milliseconds
  ) -> Effect {
    Effect(delayed: [Delayed(milliseconds: UInt32(clamping: milliseconds), action: action)])
  }

  /// Files this effect's delayed sends under `id`, so that `.cancel(id:)` stops them, as TCA's
  /// `.cancellable(id:)` does; with `cancelInFlight`, those filed under it already are stopped
  /// first (a debounce, or a ticker started again):
  ///
  ///     case .start: return .send(.tick, after: 500).cancellable(id: "tick", cancelInFlight: true)
  ///     case .stop: return .cancel(id: "tick")
  ///
  /// The host holds the timers; after a swap, the new code's `.cancel(id:)` also stops those
  /// the code it replaced started.
  public func cancellable(id: StaticString, cancelInFlight: Bool = false) -> Effect {
    var keyed = delayed
    for index in keyed.indices { keyed[index].id = id }
    return Effect(
      actions: actions, delayed: keyed,
      calls: calls + (cancelInFlight ? Self.cancel(id: id).calls : []))
  }

  /// Stops the delayed sends filed under `id` that have not fired
  /// (``cancellable(id:cancelInFlight:)``). It runs with the effect's other calls, before any
  /// timer the effect starts.
  public static func cancel(id: StaticString) -> Effect {
    Effect(calls: [{ _ in patchbay_cancel_keyed(id.cString, UInt32(id.utf8CodeUnitCount)) }])
  }

  /// Asks the app to navigate once this reduce returns ("patchbay.navigation/1"), as the
  /// native SDK's `.navigate` does; the app's config must grant the plugin "navigation".
  ///
  ///     case .showResults: return .navigate(.push("results"))
  ///     case .done: return .navigate(.dismiss)
  public static func navigate(_ request: Navigation) -> Effect {
    Effect(calls: [
      { host in
        switch request {
        case .push(let node): node.withCString { patchbay_navigate(host, 0, $0) }
        case .pop: patchbay_navigate(host, 1, nil)
        case .popToRoot: patchbay_navigate(host, 2, nil)
        case .present(let node): node.withCString { patchbay_navigate(host, 3, $0) }
        case .dismiss: patchbay_navigate(host, 4, nil)
        }
      }
    ])
  }

  /// Both effects: this one's sends, then `other`'s.
  public func merge(with other: Effect) -> Effect {
    Effect(
      actions: actions + other.actions, delayed: delayed + other.delayed,
      calls: calls + other.calls)
  }
}

/// What `Effect.navigate` asks of the app: a node of its config (`[[feature]] key`) pushed on
/// the feature's stack or presented over it, or one taken off.
public enum Navigation {
  case push(String)
  case present(String)
  case pop
  case popToRoot
  case dismiss
}
