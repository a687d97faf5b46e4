import Patchbay
import PatchbayTesting
import Testing

// Written as TCA writes features: the macros supply the conformances and case paths.

@Reducer
private struct Tally {
  @ObservableState
  struct State: Equatable {
    var count = 0
    @ObservationStateIgnored var renders = 0
  }
  enum Action: Equatable {
    case decrementButtonTapped
    case incrementButtonTapped
  }
  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .decrementButtonTapped: state.count -= 1
      case .incrementButtonTapped: state.count += 1
      }
      return .none
    }
  }
}

@Reducer
private struct Inventory {
  @ObservableState
  struct State: Equatable {
    @Presents var destination: Destination.State?
    var path = StackState<Path.State>()
  }
  enum Action {
    case addButtonTapped
    case destination(PresentationAction<Destination.Action>)
    case path(StackActionOf<Path>)
    case pushCounter
  }

  @Reducer(state: .equatable)
  enum Destination {
    case add(Tally)
    case edit(Tally)
    @ReducerCaseIgnored
    case alert(String)
    case confirmation
  }

  @Reducer
  enum Path {
    case counter(Tally)
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .addButtonTapped:
        state.destination = .add(Tally.State())
      case .pushCounter:
        state.path.append(.counter(Tally.State()))
      case .destination, .path:
        break
      }
      return .none
    }
    .ifLet(\.$destination, action: \.destination)
    .forEach(\.path, action: \.path)
  }
}

extension Inventory.Path.State: Equatable {}

@Suite struct ReducerMacroTests {
  @Test func aStructReducerCompilesAsInTCA() async {
    let store = TestStore(initialState: Tally.State()) { Tally() }
    await store.send(.incrementButtonTapped) { $0.count = 1 }
    await store.send(\.decrementButtonTapped) { $0.count = 0 }
    // The macro adds the conformance: without it, this line does not compile.
    let _: any ObservableState.Type = Tally.State.self
  }

  @Test func anEnumReducerRunsEachCasesReducerInItsCase() async {
    let store = TestStore(initialState: Inventory.State()) { Inventory() }
    await store.send(.addButtonTapped) { $0.destination = .add(Tally.State()) }
    await store.send(\.destination.add.incrementButtonTapped) {
      $0.destination = .add(Tally.State(count: 1))
    }
    await store.send(.destination(.dismiss)) { $0.destination = nil }
    await store.send(.pushCounter) { $0.path.append(.counter(Tally.State())) }
    await store.send(\.path[id: 0].counter.incrementButtonTapped) {
      $0.path[id: 0] = .counter(Tally.State(count: 1))
    }
  }

  @Test func enumReducerStateHasCasePathsAndDynamicMembers() {
    let state = Inventory.Destination.State.add(Tally.State(count: 3))
    #expect(state.add?.count == 3)
    #expect(state.edit == nil)
    #expect(state[case: \.add] == Tally.State(count: 3))
    #expect(Inventory.Destination.State.alert("Saved").is(\.alert))
    #expect(Inventory.Destination.State.confirmation.is(\.confirmation))
  }

  @Test func anActionForAnotherCaseWarnsAndChangesNothing() async {
    let store = Store(initialState: Inventory.State(destination: .add(Tally.State()))) {
      Inventory()
    }
    let issues = collectIssues {
      store.send(.destination(.presented(.edit(.incrementButtonTapped))))
    }
    #expect(store.state.destination == .add(Tally.State()))
    #expect(issues.count == 1)
  }
}
