import Patchbay
import PatchbayTesting
import Testing

private struct Parent: Reducer {
  struct State: Equatable { var counter = Counter.State() }
  @CasePathable enum Action { case counter(Counter.Action), other }
  var body: some Reducer<State, Action> {
    Scope(state: \.counter, action: \.counter) { Counter() }
  }
}

private struct WrappingParent: Reducer {
  struct State: Equatable { var counter = Counter.State() }
  @CasePathable enum Action { case wrapped(Wrapped) }
  @CasePathable enum Wrapped { case counter(Counter.Action) }
  var body: some Reducer<State, Action> {
    Scope(state: \.counter, action: \Action.Cases.wrapped.counter) { Counter() }
  }
}

private struct Pinger: Reducer {
  struct State: Equatable { var pinged = false }
  @CasePathable enum Action: Equatable { case ping, pong }
  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .ping: return .send(.pong)
    case .pong:
      state.pinged = true
      return .none
    }
  }
}

private struct PingerParent: Reducer {
  struct State: Equatable { var child = Pinger.State() }
  @CasePathable enum Action: Equatable { case child(Pinger.Action) }
  var body: some Reducer<State, Action> {
    Scope(state: \.child, action: \.child) { Pinger() }
  }
}

private struct ComputedParent: Reducer {
  struct State: Equatable {
    var storage = [0]
    /// A computed child: Scope goes through the key path instead of a stored offset.
    var counter: Counter.State {
      get { Counter.State(count: self.storage[0]) }
      set { self.storage[0] = newValue.count }
    }
  }
  @CasePathable enum Action { case counter(Counter.Action) }
  var body: some Reducer<State, Action> {
    Scope(state: \.counter, action: \.counter) { Counter() }
  }
}

@Suite struct ScopeTests {
  @Test func routesChildActionsThreeLevelsDeepAndParentSeesThemAfter() {
    var state = Outer.State()
    _ = Outer().reduce(into: &state, action: .middle(.inner(.counter(.increment))))
    #expect(state.middle.inner.counter.count == 1)
    #expect(state.childActionsSeen == 1)
  }

  @Test func ignoresOtherActions() {
    var state = Parent.State(counter: Counter.State(count: 7))
    _ = Parent().reduce(into: &state, action: .other)
    #expect(state.counter.count == 7)
  }

  @Test func scopesComputedChildState() {
    var state = ComputedParent.State()
    _ = ComputedParent().reduce(into: &state, action: .counter(.increment))
    _ = ComputedParent().reduce(into: &state, action: .counter(.increment))
    #expect(state.storage == [2])
  }

  @Test func acceptsChainedCaseKeyPaths() {
    var state = WrappingParent.State()
    _ = WrappingParent().reduce(into: &state, action: .wrapped(.counter(.increment)))
    #expect(state.counter.count == 1)
  }

  @Test func mapsChildEffectsToParentActions() async {
    let store = TestStore(initialState: PingerParent.State()) { PingerParent() }
    await store.send(.child(.ping))
    await store.receive(.child(.pong)) { $0.child.pinged = true }
  }
}

@Reducer
private struct Session {
  @Reducer
  enum Screen {
    case loggedOut(Tally)
    case loggedIn(Tally)
  }
  @Reducer
  struct Tally {
    struct State: Equatable { var count = 0 }
    enum Action: Equatable { case increment }
    var body: some ReducerOf<Self> {
      Reduce { state, _ in
        state.count += 1
        return .none
      }
    }
  }
  typealias State = Screen.State
  typealias Action = Screen.Action
  var body: some ReducerOf<Self> {
    Scope(state: \.loggedIn, action: \.loggedIn) { Tally() }
  }
}

extension Session.Screen.State: Equatable {}

@Suite struct ScopeToCaseTests {
  @Test func runsTheChildInItsCase() async {
    let store = TestStore(initialState: Session.State.loggedIn(.init())) { Session() }
    await store.send(.loggedIn(.increment)) { $0 = .loggedIn(.init(count: 1)) }
  }

  @Test func anActionForAnotherCaseIsReportedAndChangesNothing() async {
    let store = Store(initialState: Session.State.loggedOut(.init())) { Session() }
    let issues = collectIssues {
      store.send(.loggedIn(.increment))
    }
    #expect(store.state == .loggedOut(.init()))
    #expect(issues.count == 1)
    #expect(issues.first?.contains("A 'Scope' at PatchbayTests/ScopeTests.swift") == true)
  }
}
