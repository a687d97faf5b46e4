import Dependencies

/// Runs a reducer whose action queue belongs to someone else: a plugin host.
///
/// ``Store`` owns its queue. A plugin's feature instance does not: the host decides when each
/// action is reduced, and actions from effects go back to the host's queue. `ReducerRuntime`
/// is that half of a store: the state, the reducer, and the effects, which send through
/// `send`.
///
/// ```swift
/// let runtime = ReducerRuntime(initialState: Counter.State(), reducer: Counter()) { action in
///   host.enqueue(action)  // reduced later, through `runtime.reduce`
/// }
/// runtime.reduce(.incrementLater(ms: 10))
/// ```
///
/// > Important: `reduce`, `state` and `cancelEffects` must not be called concurrently (the
/// > host's serial queue guarantees it); `send` is called from any thread.
public final class ReducerRuntime<State, Action>: @unchecked Sendable {
  /// The current state.
  public private(set) var state: State
  private let reducer: any Reducer<State, Action>
  private let dependencies: DependencyValues
  private let effects = EffectTasks()
  private let runner: EffectRunner<Action>

  /// Creates a runtime; effects send their actions to `send`. Dependencies are those of the
  /// caller, with `prepareDependencies` applied.
  public init<R: Reducer<State, Action>>(
    initialState: State,
    reducer: R,
    withDependencies prepareDependencies: (inout DependencyValues) -> Void = { _ in },
    send: @escaping @Sendable (Action) -> Void
  ) {
    self.state = initialState
    (self.reducer, self.dependencies) = withDependencies(prepareDependencies) {
      (reducer._compiled(), DependencyValues._current)
    }
    self.runner = EffectRunner(tasks: self.effects, enqueue: send)
  }

  deinit {
    self.effects.cancelAll(close: true)
  }

  /// Reduces one action and starts its effects.
  public func reduce(_ action: Action) {
    DependencyValues.$_current.withValue(self.dependencies) {
      let effect = self.reducer.reduce(into: &self.state, action: action)
      self.runner.start(effect)
    }
  }

  /// How many effects are running.
  public var runningEffects: Int { self.effects.count }

  /// Cancels every running effect; the state is kept.
  public func cancelEffects() {
    self.effects.cancelAll()
  }
}
