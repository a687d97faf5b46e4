import CasePaths
import Dependencies

/// Runs a reducer: holds the state, reduces the actions sent to it one at a time, runs the
/// effects, and tells observers about new states.
///
/// ```swift
/// let store = Store(initialState: Counter.State()) { Counter() }
/// store.send(.increment)
/// store.state.count  // 1
///
/// let token = store.observe { state in render(state) }
/// ```
///
/// Sends are processed in FIFO order by one serial queue: a send made while an action is
/// being reduced (by an effect, an observer, or another thread) is queued, never recursed.
/// `send` may be called from any thread.
///
/// > Important: Releasing the last reference to a store cancels its effects. Effects hold the
/// > store weakly, so an effect never keeps a store alive.
public final class Store<State, Action>: @unchecked Sendable {
  /// The core this store sends to, unless it is scoped; unretained, since `owner` holds it for
  /// as long as the store lives.
  @usableFromInline let root: Unmanaged<StoreCore<State, Action>>?
  @usableFromInline let readState: () -> State
  @usableFromInline let sendAction: (Action) -> Void
  @usableFromInline let addObserver: (@escaping (State) -> Void) -> StoreObservation
  @usableFromInline let owner: AnyObject

  /// Creates a store running `reducer`, with dependencies optionally overridden for the
  /// reducer and every effect it starts.
  ///
  /// ```swift
  /// let store = Store(initialState: Login.State()) {
  ///   Login()
  /// } withDependencies: {
  ///   $0.continuousClock = ImmediateClock()
  /// }
  /// ```
  @inlinable
  public convenience init<R: Reducer<State, Action>>(
    initialState: @autoclosure () -> State,
    @ReducerBuilder<State, Action> reducer: () -> R,
    withDependencies prepareDependencies: ((inout DependencyValues) -> Void)? = nil
  ) {
    let (state, compiled, dependencies) = withDependencies(prepareDependencies ?? { _ in }) {
      (
        initialState(), reducer()._compiled(),
        prepareDependencies == nil ? nil : DependencyValues._current
      )
    }
    self.init(
      core: StoreCore(initialState: state, reducer: compiled, dependencies: dependencies)
    )
  }

  @inlinable
  package init(core: StoreCore<State, Action>) {
    self.root = Unmanaged.passUnretained(core)
    self.owner = core
    self.readState = { core.state }
    self.sendAction = { core.send($0) }
    self.addObserver = { callback in
      let token = core.observers.add(callback)
      return StoreObservation { [weak core] in core?.observers.remove(token) }
    }
  }

  private init(
    owner: AnyObject,
    readState: @escaping () -> State,
    sendAction: @escaping (Action) -> Void,
    addObserver: @escaping (@escaping (State) -> Void) -> StoreObservation
  ) {
    self.root = nil
    self.owner = owner
    self.readState = readState
    self.sendAction = sendAction
    self.addObserver = addObserver
  }

  /// The current state.
  public var state: State {
    self.readState()
  }

  /// Sends an action to the reducer. Returns after the action, and everything it caused to be
  /// sent synchronously, has been reduced, unless another thread is draining the queue.
  @inlinable
  public func send(_ action: Action) {
    if let root = self.root {
      // No count around the call (`owner` keeps the core alive): the core's counts go through
      // a side table, which its effects' weak reference to it gives it, and a retain and a
      // release were 40% of a send.
      root._withUnsafeGuaranteedRef { $0.send(action) }
    } else {
      self.sendAction(action)
    }
  }

  /// Calls `onChange` with each new state after an action changed it (for `Equatable` state;
  /// otherwise after every action). Keep the returned token; dropping it stops the calls.
  ///
  /// `onChange` runs on the thread that reduced the action; it may send, and what it sends is
  /// queued.
  public func observe(_ onChange: @escaping (State) -> Void) -> StoreObservation {
    self.addObserver(onChange)
  }

  /// A store for a child feature: it sees the child's state and sends the child's actions,
  /// embedded in the parent's.
  ///
  /// ```swift
  /// let counter = store.scope(state: \.counter, action: \.counter)
  /// counter.send(.increment)  // the parent receives .counter(.increment)
  /// ```
  public func scope<ChildState, ChildAction>(
    state toChildState: KeyPath<State, ChildState>,
    action toChildAction: CaseKeyPath<Action, ChildAction>
  ) -> Store<ChildState, ChildAction> {
    let readParent = self.readState
    let sendParent = self.sendAction
    let observeParent = self.addObserver
    let path = UncheckedBox(toChildState)
    let embed = AnyCasePath(toChildAction)
    return Store<ChildState, ChildAction>(
      owner: self.owner,
      readState: { readParent()[keyPath: path.value] },
      sendAction: { sendParent(embed.embed($0)) },
      addObserver: { callback in observeParent { callback($0[keyPath: path.value]) } }
    )
  }

  /// A store for an optional child, or nil while the child's state is nil.
  public func scope<ChildState, ChildAction>(
    state toChildState: KeyPath<State, ChildState?>,
    action toChildAction: CaseKeyPath<Action, ChildAction>
  ) -> Store<ChildState, ChildAction>? {
    guard let initial = self.state[keyPath: toChildState] else { return nil }
    let readParent = self.readState
    let sendParent = self.sendAction
    let observeParent = self.addObserver
    let path = UncheckedBox(toChildState)
    let last = LockedValue(initial)
    let embed = AnyCasePath(toChildAction)
    return Store<ChildState, ChildAction>(
      owner: self.owner,
      readState: {
        if let state = readParent()[keyPath: path.value] { last.value = state }
        return last.value
      },
      sendAction: { sendParent(embed.embed($0)) },
      addObserver: { callback in
        observeParent { state in
          if let child = state[keyPath: path.value] { callback(child) }
        }
      }
    )
  }
}

/// Keeps a ``Store/observe(_:)`` callback registered; cancel it or let it go to stop.
public final class StoreObservation: Sendable {
  private let onCancel: LockedValue<(@Sendable () -> Void)?>

  @usableFromInline
  init(_ onCancel: @escaping @Sendable () -> Void) {
    self.onCancel = LockedValue(onCancel)
  }

  /// Stops the callbacks. Safe to call more than once.
  public func cancel() {
    let onCancel = self.onCancel.withValue { value in
      defer { value = nil }
      return value
    }
    onCancel?()
  }

  deinit {
    self.cancel()
  }
}

extension Store where State: Sendable {
  /// The states after each change, as an async sequence.
  ///
  /// ```swift
  /// for await state in store.stateChanges { render(state) }
  /// ```
  public var stateChanges: AsyncStream<State> {
    AsyncStream { continuation in
      let token = UncheckedBox(self.observe { continuation.yield($0) })
      continuation.onTermination = { _ in token.value.cancel() }
    }
  }
}
