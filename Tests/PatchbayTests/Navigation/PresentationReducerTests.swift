import Patchbay
import PatchbayTesting
import Testing

private struct Sheet: Reducer {
  struct State: Equatable {
    @PresentationState var timer: Timer.State?
    var dismissedWhileShowing: Int?
  }
  @CasePathable enum Action: Equatable {
    case timer(PresentationAction<Timer.Action>)
    case present
  }
  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .present:
        state.timer = Timer.State()
      case .timer(.dismiss):
        // The parent still sees the presented state when dismiss arrives.
        state.dismissedWhileShowing = state.timer?.ticks
      case .timer:
        break
      }
      return .none
    }
    .ifLet(\.$timer, action: \.timer) { Timer() }
  }
}

@Suite struct PresentationReducerTests {
  @Test func dismissClearsStateAndCancelsEffects() async {
    let clock = TestClock()
    let store = TestStore(initialState: Sheet.State()) {
      Sheet()
    } withDependencies: {
      $0.continuousClock = clock
    }
    await store.send(.present) { $0.timer = Timer.State() }
    await store.send(.timer(.presented(.start)))
    await clock.advance(by: .seconds(1))
    await store.receive(.timer(.presented(.tick))) { $0.timer?.ticks = 1 }
    await store.send(.timer(.dismiss)) {
      $0.dismissedWhileShowing = 1
      $0.timer = nil
    }
    await clock.advance(by: .seconds(5))
    await store.finish()
  }

  @Test func actionsWithNothingPresentedWarnAndChangeNothing() {
    var state = Sheet.State()
    let issues = collectIssues {
      _ = Sheet().reduce(into: &state, action: .timer(.presented(.tick)))
      _ = Sheet().reduce(into: &state, action: .timer(.dismiss))
    }
    #expect(state.timer == nil)
    #expect(issues.count == 2)
    #expect(
      issues[0].contains("received an action for a presented feature while nothing was presented"))
    #expect(issues[1].contains("received 'dismiss' while nothing was presented"))
    #expect(issues.allSatisfy { $0.contains("PresentationReducerTests.swift:27") })
  }
}
