import Patchbay
import PatchbayTesting
import Testing

private struct Parent: Reducer {
  struct State: Equatable { var timer: Timer.State? }
  @CasePathable enum Action: Equatable { case timer(Timer.Action), show, hide }
  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .show: state.timer = Timer.State()
      case .hide: state.timer = nil
      case .timer: break
      }
      return .none
    }
    .ifLet(\.timer, action: \.timer) { Timer() }
  }
}

@Suite struct IfLetReducerTests {
  @Test func runsTheChildWhilePresent() async {
    let clock = TestClock()
    let store = TestStore(initialState: Parent.State()) {
      Parent()
    } withDependencies: {
      $0.continuousClock = clock
    }
    await store.send(.show) { $0.timer = Timer.State() }
    await store.send(.timer(.start))
    await clock.advance(by: .seconds(1))
    await store.receive(.timer(.tick)) { $0.timer?.ticks = 1 }
    await store.send(.timer(.stop))
    await store.finish()
  }

  @Test func settingChildToNilCancelsItsEffects() async {
    let clock = TestClock()
    let store = TestStore(initialState: Parent.State()) {
      Parent()
    } withDependencies: {
      $0.continuousClock = clock
    }
    await store.send(.show) { $0.timer = Timer.State() }
    await store.send(.timer(.start))
    await store.send(.hide) { $0.timer = nil }
    await clock.advance(by: .seconds(5))
    await store.finish()
  }

  @Test func actionForAbsentChildWarnsAndChangesNothing() async throws {
    let store = Store(initialState: Parent.State()) { Parent() }
    let issues = collectIssues {
      store.send(.timer(.tick))
    }
    #expect(store.state == Parent.State())
    #expect(issues.count == 1)
    let message = try #require(issues.first)
    #expect(message.contains("An 'ifLet' at PatchbayTests/IfLetReducerTests.swift:17"))
    #expect(message.contains("while the child state was nil"))
    #expect(message.contains(".timer(.tick)"))
    #expect(message.contains("Fix:"))
  }
}
