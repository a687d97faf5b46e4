import PatchbayPlugin
import PatchbayTesting
import PracticeFeature
import Testing

/// The Practice plugin's features, tested the TCA way, in process.
@Suite struct PracticeTests {
  @Test func quizScoresAndReportsToItsParent() async {
    let store = TestStore(initialState: Quiz.initialState) { Quiz() }
    await store.send(.answer(5)) { $0 = Quiz.State(question: 1, score: 1) }
    await store.send(.answer(0)) { $0 = Quiz.State(question: 2, score: 1) }
    await store.send(.answer(5)) { $0 = Quiz.State() }
    await store.receive(.delegate(.finished(score: 2)))
  }

  @Test func practiceKeepsTheBestScoreAndAsksForResults() async {
    let store = TestStore(initialState: Practice.initialState) { Practice() }
    await store.send(.quiz(.delegate(.finished(score: 2)))) {
      $0 = Practice.State(attempts: 1, best: 2)
    }
    let requests = store.takeRequests()
    #expect(requests.count == 1)
    guard case .push(let node, let state)? = requests.first as? Navigation else {
      Issue.record("expected a push, got \(requests)")
      return
    }
    #expect(node == "results")
    #expect(state as? Results.State == Results.State(score: 2, outOf: 3))
    await store.send(.quiz(.answer(1)))  // the parent ignores the child's other actions
  }

  @Test func resultsNavigatesBack() async {
    let store = TestStore(initialState: Results.State(score: 1, outOf: 3)) { Results() }
    await store.send(.again)
    await store.send(.home)
    let requests = store.takeRequests().compactMap { $0 as? Navigation }
    #expect(requests.count == 2)
    if case .pop = requests[0] {} else { Issue.record("expected pop") }
    if case .popToRoot = requests[1] {} else { Issue.record("expected popToRoot") }
  }
}
