import Patchbay
import PatchbayTesting
import Testing

// docs/FEATURES.md ("Write a feature") and docs/TESTING.md ("Test a feature"), verbatim, so
// they stay true.

struct Counter: Reducer {
  struct State: Equatable {
    var count = 0
    var isWaiting = false
  }

  @CasePathable
  enum Action: Equatable {
    case increment
    case incrementLaterTapped
    case incremented
  }

  @Dependency(\.continuousClock) var clock

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .increment, .incremented:
      state.count += 1
      state.isWaiting = false
      return .none
    case .incrementLaterTapped:
      state.isWaiting = true
      return .run { [clock] send in
        try await clock.sleep(for: .seconds(1))
        await send(.incremented)
      }
    }
  }
}

@Test func incrementLater() async {
  let clock = TestClock()
  let store = TestStore(initialState: Counter.State()) {
    Counter()
  } withDependencies: {
    $0.continuousClock = clock
  }

  await store.send(.incrementLaterTapped) { $0.isWaiting = true }
  await clock.advance(by: .seconds(1))
  await store.receive(.incremented) {
    $0.isWaiting = false
    $0.count = 1
  }
}

@Test func storeObserveFromTheReadme() {
  let store = Store(initialState: Counter.State()) { Counter() }
  var printed: [String] = []
  let token = store.observe { state in printed.append("count: \(state.count)") }
  store.send(.increment)
  #expect(printed == ["count: 1"])
  token.cancel()
}
