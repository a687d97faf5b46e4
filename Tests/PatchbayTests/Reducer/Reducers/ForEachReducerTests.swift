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
  @CasePathable enum Action: Equatable { case rows(IdentifiedActionOf<Row>), remove(id: Int) }
  var body: some Reducer<State, Action> {
    Reduce { state, action in
      if case .remove(let id) = action { state.rows.remove(id: id) }
      return .none
    }
    .forEach(\.rows, action: \.rows) { Row() }
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

  @Test func actionForMissingElementWarnsAndChangesNothing() {
    var state = Rows.State(rows: [Row.State(id: 1)])
    let before = state
    let issues = collectIssues {
      _ = Rows().reduce(into: &state, action: .rows(.element(id: 9, action: .timer(.tick))))
    }
    #expect(state == before)
    #expect(issues.count == 1)
    #expect(
      issues.first?.contains("A 'forEach' at PatchbayTests/ForEachReducerTests.swift:24") == true)
    #expect(issues.first?.contains("missing element (id 9)") == true)
  }
}
