import Dependencies
import DequeModule

/// The engine under ``Store`` and the test store: the state, the serial action queue, and the
/// running effects. Use ``Store``; hosts and test tools build on this.
///
/// One action is reduced at a time, in the order actions were sent. A send that arrives while
/// an action is being reduced (from an effect, an observer, another thread) is queued and
/// reduced by the thread already draining the queue, never recursively. The reducer runs under
/// the queue's lock, so reading ``state`` from any thread is safe.
@usableFromInline
package final class StoreCore<State, Action>: @unchecked Sendable {
  @usableFromInline
  struct Inbox {
    @usableFromInline var state: State
    @usableFromInline var queue = Deque<Action>(minimumCapacity: 16)
    @usableFromInline var isDraining = false

    @usableFromInline init(state: State) { self.state = state }
  }

  @usableFromInline
  enum Step {
    case next(Action)
    case done
    case effect(Effect<Action>, changed: State?)
  }

  @usableFromInline let inbox: LockedValue<Inbox>
  @usableFromInline let reducer: any Reducer<State, Action>
  @usableFromInline let dependencies: DependencyValues?
  @usableFromInline let isEqual: ((State, State) -> Bool)?
  @usableFromInline package let effects: EffectTasks
  @usableFromInline let observers = StateObservers<State>()
  @usableFromInline let runner: EffectRunner<Action>

  @inlinable
  package init(
    initialState: State, reducer: any Reducer<State, Action>, dependencies: DependencyValues?,
    requests handleRequest: @escaping @Sendable (any Sendable) -> Void = unhandledRequest,
    effectExecutor: SettlingExecutor? = nil
  ) {
    self.inbox = LockedValue(Inbox(state: initialState))
    self.reducer = reducer
    self.dependencies = dependencies
    self.isEqual = equalityCheck(State.self)
    let effects = EffectTasks()
    let core = WeakReference<StoreCore>()
    self.effects = effects
    self.runner = EffectRunner(
      tasks: effects, enqueue: { [core] action in core.object?.send(action) },
      handleRequest: handleRequest, executor: effectExecutor
    )
    core.object = self
  }

  deinit {
    self.effects.cancelAll(close: true)
  }

  /// The current state.
  @usableFromInline
  package var state: State {
    self.inbox.withValue { $0.state }
  }

  /// Whether an action is being reduced or waits in the queue.
  @usableFromInline
  package var isBusy: Bool {
    self.inbox.withValue { $0.isDraining || !$0.queue.isEmpty }
  }

  /// Queues `action`, and drains the queue unless another send already does.
  ///
  /// The common send — nothing draining, no effect, nobody watching — takes the lock once:
  /// the action is reduced in the same critical section that finds the queue idle.
  @inlinable
  package func send(_ action: Action) {
    let watching = self.observers.isActive
    var step = self.inbox.withValue { inbox -> Step in
      if inbox.isDraining {
        inbox.queue.append(action)
        return .done
      }
      inbox.isDraining = true
      return self.reduce(action, in: &inbox, watching: watching)
    }
    while true {
      switch step {
      case .next(let next):
        step = self.reduceOne(next)
      case .done:
        return
      case .effect(let effect, let changed):
        if let dependencies = self.dependencies {
          // Effects start inline, so they inherit the store's dependencies from here.
          DependencyValues.$_current.withValue(dependencies) { self.runner.start(effect) }
        } else {
          self.runner.start(effect)
        }
        if let changed { self.observers.notify(changed) }
        let next: Action? = self.inbox.withValue { inbox in
          if let next = inbox.queue.popFirst() { return next }
          inbox.isDraining = false
          return nil
        }
        guard let next else { return }
        step = self.reduceOne(next)
      }
    }
  }

  /// Reduces one action under the lock, for the thread draining the queue.
  @inlinable
  func reduceOne(_ action: Action) -> Step {
    let watching = self.observers.isActive
    return self.inbox.withValue { inbox in self.reduce(action, in: &inbox, watching: watching) }
  }

  /// Reduces `action` into the inbox's state (its lock held); when nothing follows from it,
  /// also takes the next queued action, or marks the queue idle.
  @inlinable
  func reduce(_ action: Action, in inbox: inout Inbox, watching: Bool) -> Step {
    let before: State? = watching ? inbox.state : nil
    let effect: Effect<Action>
    if let dependencies = self.dependencies {
      effect = DependencyValues.$_current.withValue(dependencies) {
        self.reducer.reduce(into: &inbox.state, action: action)
      }
    } else {
      effect = self.reducer.reduce(into: &inbox.state, action: action)
    }
    var changed: State?
    if let before, !(self.isEqual?(before, inbox.state) ?? false) {
      changed = inbox.state
    }
    if case .none = effect.operation, changed == nil {
      if let next = inbox.queue.popFirst() { return .next(next) }
      inbox.isDraining = false
      return .done
    }
    return .effect(effect, changed: changed)
  }
}

/// `==` for `T` when it is `Equatable`, found at run time.
@usableFromInline
func equalityCheck<T>(_: T.Type) -> ((T, T) -> Bool)? {
  guard let equatable = T.self as? any Equatable.Type else { return nil }
  func open<E: Equatable>(_: E.Type) -> (T, T) -> Bool {
    { lhs, rhs in (lhs as! E) == (rhs as! E) }
  }
  return open(equatable)
}
