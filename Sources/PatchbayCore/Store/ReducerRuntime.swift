import Dependencies

/// Runs a reducer whose action queue belongs to someone else: a plugin host.
///
/// ``Store`` owns its queue. A plugin's feature instance does not: the host decides when each
/// action is reduced, and actions from effects go back to the host's queue. `ReducerRuntime`
/// is that half of a store: the state, the reducer, and the effects, which send through
/// `send`; requests (``Effect/request(_:)``) go to `requests`.
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
@usableFromInline
package final class ReducerRuntime<State, Action>: @unchecked Sendable {
  /// The state lives at a fixed address: `reduce` mutates it in place, and callers are
  /// serialized by the host, so no exclusivity bookkeeping is needed per action.
  @usableFromInline let storage: UnsafeMutablePointer<State>
  @usableFromInline let reducer: any Reducer<State, Action>
  @usableFromInline let dependencies: DependencyValues?
  @usableFromInline let effects: EffectTasks
  @usableFromInline let runner: EffectRunner<Action>

  /// Creates a runtime; effects send their actions to `send`.
  ///
  /// Reducers and effects see the caller's dependencies, updated by `prepareDependencies`
  /// when given (which costs a task-local push per action).
  ///
  /// A plugin passes `generations` to let its effects outlive its code: the keys of ids it
  /// cancels go to `cancelled`, and a cancellable effect's actions go to `sendFrom` with the
  /// keys of its ids (``EffectID/key``).
  @inlinable
  package init<R: Reducer<State, Action>>(
    initialState: State,
    reducer: R,
    withDependencies prepareDependencies: ((inout DependencyValues) -> Void)? = nil,
    requests handleRequest: @escaping @Sendable (any Sendable) -> Void = unhandledRequest,
    generations: EffectGenerations<Action>? = nil,
    send: @escaping @Sendable (Action) -> Void
  ) {
    var cancelled: (@Sendable (EffectID) -> Void)?
    var sendFrom: (@Sendable (Action, [EffectID]) -> Void)?
    if let generations {
      cancelled = { id in generations.cancelled { id.key } }
      sendFrom = { action, ids in generations.sendFrom(action) { ids.map(\.key) } }
    }
    self.effects = EffectTasks(cancelled: cancelled)
    self.storage = UnsafeMutablePointer<State>.allocate(capacity: 1)
    self.storage.initialize(to: initialState)
    if let prepareDependencies {
      (self.reducer, self.dependencies) = withDependencies(prepareDependencies) {
        (reducer._compiled(), DependencyValues._current)
      }
    } else {
      (self.reducer, self.dependencies) = (reducer._compiled(), nil)
    }
    self.runner = EffectRunner(
      tasks: self.effects, enqueue: send,
      enqueueFromEffect: sendFrom,
      handleRequest: handleRequest)
  }

  deinit {
    self.effects.cancelAll(close: true)
    self.storage.deinitialize(count: 1)
    self.storage.deallocate()
  }

  /// The current state.
  @inlinable
  package var state: State { self.storage.pointee }

  /// Reduces one action and starts its effects.
  @inlinable
  package func reduce(_ action: Action) {
    if let dependencies = self.dependencies {
      DependencyValues.$_current.withValue(dependencies) { self.reduceNow(action) }
    } else {
      self.reduceNow(action)
    }
  }

  @inlinable
  func reduceNow(_ action: Action) {
    let effect = self.reducer.reduce(into: &self.storage.pointee, action: action)
    if case .none = effect.operation { return }
    self.runner.start(effect)
  }

  /// How many effects are running.
  @usableFromInline
  package var runningEffects: Int { self.effects.count }

  /// Cancels every running effect; the state is kept.
  @usableFromInline
  package func cancelEffects() {
    self.effects.cancelAll()
  }

  /// Cancels the running effects filed under an id whose key is `key` (``EffectID/key``).
  @usableFromInline
  package func cancelEffects(key: String) {
    self.effects.cancel(key: key)
  }

  /// Starts `effect` as if a reducer had returned it.
  @inlinable
  package func start(_ effect: Effect<Action>) {
    if let dependencies = self.dependencies {
      DependencyValues.$_current.withValue(dependencies) { self.runner.start(effect) }
    } else {
      self.runner.start(effect)
    }
  }
}

/// Where a plugin's runtime tells its host about effects that may outlive its code
/// (``ReducerRuntime/init(initialState:reducer:withDependencies:requests:generations:send:)``).
/// Keys are made only when asked for: the host wants them only after a swap.
@usableFromInline
package struct EffectGenerations<Action>: Sendable {
  /// The key of an id the runtime cancelled.
  @usableFromInline let cancelled: @Sendable (() -> String) -> Void
  /// An action a cancellable effect sent, with the keys of its ids.
  @usableFromInline let sendFrom: @Sendable (Action, () -> [String]) -> Void

  @usableFromInline
  package init(
    cancelled: @escaping @Sendable (() -> String) -> Void,
    sendFrom: @escaping @Sendable (Action, () -> [String]) -> Void
  ) {
    self.cancelled = cancelled
    self.sendFrom = sendFrom
  }
}
