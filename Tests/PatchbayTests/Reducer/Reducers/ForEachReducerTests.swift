import Patchbay
import PatchbayTesting
import Testing

private struct Row: Reducer {
  struct State: Equatable, Identifiable {
    let id: Int
    var timer = Timer.State()
  }
  @CasePathable enum Action: Equatable { case timer(Timer.Action) }
  var body: some Reducer<State, Action> {
    Scope(state: \.timer, action: \.timer) { Timer() }
  }
}

private struct Rows: Reducer {
  struct State: Equatable { var rows: IdentifiedArrayOf<Row.State> = [] }
  @CasePathable enum Action: Equatable {
    case rows(IdentifiedActionOf<Row>), remove(id: Int)
    case edit(removing: [Int], adding: [Int])
  }
  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .remove(let id): state.rows.remove(id: id)
      case .edit(let removing, let adding):
        removing.forEach { state.rows.remove(id: $0) }
        adding.forEach { state.rows.append(Row.State(id: $0)) }
      case .rows: break
      }
      return .none
    }
    .forEach(\.rows, action: \.rows) { Row() }
  }
}

/// Rows with ids that are not plain bits (strings): `forEach` compares them with `==`.
private struct NamedRows: Reducer {
  struct Named: Equatable, Identifiable {
    let id: String
    var timer = Timer.State()
  }
  struct State: Equatable { var rows: IdentifiedArrayOf<Named> = [] }
  @CasePathable enum Action: Equatable {
    case rows(IdentifiedAction<String, Timer.Action>), remove(id: String)
  }
  var body: some Reducer<State, Action> {
    Reduce { state, action in
      if case .remove(let id) = action { state.rows.remove(id: id) }
      return .none
    }
    .forEach(\.rows, action: \.rows) { Scope(state: \.timer, action: \.self) { Timer() } }
  }
}

@Suite struct ForEachReducerTests {
  private func makeStore(_ clock: TestClock<Duration>) -> TestStore<Rows.State, Rows.Action> {
    TestStore(initialState: Rows.State(rows: [Row.State(id: 1), Row.State(id: 2)])) {
      Rows()
    } withDependencies: {
      $0.continuousClock = clock
    }
  }

  @Test func sameCancelIDInTwoRowsDoesNotCollide() async {
    let clock = TestClock()
    let store = self.makeStore(clock)
    await store.send(.rows(.element(id: 1, action: .timer(.start))))
    await clock.advance(by: .milliseconds(500))
    // Row 2 starts its timer with the same id and cancelInFlight: row 1's must keep running.
    await store.send(.rows(.element(id: 2, action: .timer(.start))))
    await clock.advance(by: .milliseconds(500))
    await store.receive(.rows(.element(id: 1, action: .timer(.tick)))) {
      $0.rows[id: 1]?.timer.ticks = 1
    }
    await clock.advance(by: .milliseconds(500))
    await store.receive(.rows(.element(id: 2, action: .timer(.tick)))) {
      $0.rows[id: 2]?.timer.ticks = 1
    }
    await store.send(.rows(.element(id: 1, action: .timer(.stop))))
    await store.send(.rows(.element(id: 2, action: .timer(.stop))))
    await store.finish()
  }

  @Test func removingARowCancelsItsEffects() async {
    let clock = TestClock()
    let store = self.makeStore(clock)
    await store.send(.rows(.element(id: 1, action: .timer(.start))))
    await store.send(.remove(id: 1)) { $0.rows.remove(id: 1) }
    await clock.advance(by: .seconds(3))
    await store.finish()
  }

  // Rows 2 and 4 go and 6 comes in one action: only the effects of the rows gone stop, the
  // row between them (3) keeps its timer.
  @Test func removingRowsAroundOneCancelsOnlyTheRemovedRowsEffects() async {
    let clock = TestClock()
    let store = TestStore(
      initialState: Rows.State(
        rows: IdentifiedArray(uniqueElements: (1...5).map { Row.State(id: $0) }))
    ) {
      Rows()
    } withDependencies: {
      $0.continuousClock = clock
    }
    for id in 2...4 { await store.send(.rows(.element(id: id, action: .timer(.start)))) }
    await store.send(.edit(removing: [2, 4], adding: [6])) {
      $0.rows.remove(id: 2)
      $0.rows.remove(id: 4)
      $0.rows.append(Row.State(id: 6))
    }
    await clock.advance(by: .seconds(1))
    await store.receive(.rows(.element(id: 3, action: .timer(.tick)))) {
      $0.rows[id: 3]?.timer.ticks = 1
    }
    await store.send(.rows(.element(id: 3, action: .timer(.stop))))
    await store.finish()
  }

  @Test func removingARowWithAStringIDCancelsOnlyItsEffects() async {
    let clock = TestClock()
    let rows = ["a", "b", "c"].map { NamedRows.Named(id: $0) }
    let store = TestStore(
      initialState: NamedRows.State(rows: IdentifiedArray(uniqueElements: rows))
    ) {
      NamedRows()
    } withDependencies: {
      $0.continuousClock = clock
    }
    for id in ["b", "c"] { await store.send(.rows(.element(id: id, action: .start))) }
    await store.send(.remove(id: "b")) { $0.rows.remove(id: "b") }
    await clock.advance(by: .seconds(1))
    await store.receive(.rows(.element(id: "c", action: .tick))) {
      $0.rows[id: "c"]?.timer.ticks = 1
    }
    await store.send(.rows(.element(id: "c", action: .stop)))
    await store.finish()
  }

  @Test func actionForMissingElementWarnsAndChangesNothing() {
    var state = Rows.State(rows: [Row.State(id: 1)])
    let before = state
    let issues = collectIssues {
      _ = Rows().reduce(into: &state, action: .rows(.element(id: 9, action: .timer(.tick))))
    }
    #expect(state == before)
    #expect(issues.count == 1)
    #expect(
      issues.first?.contains("A 'forEach' at PatchbayTests/ForEachReducerTests.swift:33") == true)
    #expect(issues.first?.contains("missing element (id 9)") == true)
  }
}
