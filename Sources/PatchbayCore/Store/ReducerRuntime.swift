import Dependencies
import Synchronization

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
  /// Its running effects: made when the first effect starts, since many instances never
  /// start one (a row of a collection of 100,000 pays for none).
  @usableFromInline let madeEffects = AtomicLazyReference<EffectTasks>()
  @usableFromInline let send: @Sendable (Action) -> Void
  @usableFromInline let sendFrom: (@Sendable (Action, [EffectID]) -> Void)?
  @usableFromInline let cancelled: (@Sendable (EffectID) -> Void)?
  @usableFromInline let handleRequest: @Sendable (any Sendable) -> Void

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
    (self.send, self.sendFrom, self.cancelled) = (
      send, generations?.sendFrom, generations?.cancelled
    )
    self.handleRequest = handleRequest
    self.storage = UnsafeMutablePointer<State>.allocate(capacity: 1)
    self.storage.initialize(to: initialState)
    if let prepareDependencies {
      (self.reducer, self.dependencies) = withDependencies(prepareDependencies) {
        (reducer._compiled(), DependencyValues._current)
      }
    } else {
      (self.reducer, self.dependencies) = (reducer._compiled(), nil)
    }
  }

  deinit {
    self.madeEffects.load()?.cancelAll(close: true)
    self.storage.deinitialize(count: 1)
    self.storage.deallocate()
  }

  /// Its running effects, made now if none ran yet.
  @usableFromInline
  var effects: EffectTasks {
    self.madeEffects.load() ?? self.madeEffects.storeIfNil(EffectTasks(cancelled: self.cancelled))
  }

  /// What starts its effects.
  @inlinable
  var runner: EffectRunner<Action> {
    EffectRunner(
      tasks: self.effects, enqueue: self.send, enqueueFromEffect: self.sendFrom,
      handleRequest: self.handleRequest)
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
    switch effect.operation {
    case .none: return
    case .send(let action): self.send(action)  // no effect runs: none is made
    default: self.runner.start(effect)
    }
  }

  /// How many effects are running.
  @usableFromInline
  package var runningEffects: Int { self.madeEffects.load()?.count ?? 0 }

  /// Cancels every running effect; the state is kept.
  @usableFromInline
  package func cancelEffects() {
    self.madeEffects.load()?.cancelAll()
  }

  /// Cancels the running effects filed under an id whose key is `key` (``EffectID/key``).
  @usableFromInline
  package func cancelEffects(key: String) {
    self.madeEffects.load()?.cancel(key: key)
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
/// Keys (``EffectID/key``) are made only when needed: the host wants them only after a swap.
@usableFromInline
package struct EffectGenerations<Action>: Sendable {
  /// An id the runtime cancelled.
  @usableFromInline let cancelled: @Sendable (EffectID) -> Void
  /// An action a cancellable effect sent, with its ids.
  @usableFromInline let sendFrom: @Sendable (Action, [EffectID]) -> Void

  @usableFromInline
  package init(
    cancelled: @escaping @Sendable (EffectID) -> Void,
    sendFrom: @escaping @Sendable (Action, [EffectID]) -> Void
  ) {
    self.cancelled = cancelled
    self.sendFrom = sendFrom
  }
}
