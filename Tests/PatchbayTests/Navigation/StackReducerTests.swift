import Patchbay
import PatchbayTesting
import Testing

private struct Path: Reducer {
  @CasePathable enum State: Equatable {
    case counter(Counter.State)
    case timer(Timer.State)
  }
  @CasePathable enum Action: Equatable {
    case counter(Counter.Action)
    case timer(Timer.Action)
  }
  var body: some Reducer<State, Action> {
    EmptyReducer()
      .ifCaseLet(\.counter, action: \.counter) { Counter() }
      .ifCaseLet(\.timer, action: \.timer) { Timer() }
  }
}

private struct App: Reducer {
  struct State: Equatable {
    var path = StackState<Path.State>()
    var popsSeen: [Int] = []
  }
  @CasePathable enum Action: Equatable {
    case path(StackActionOf<Path>)
    case openCounter
    case popAll
  }
  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .openCounter:
        state.path.append(.counter(Counter.State()))
      case .popAll:
        state.path.removeAll()
      case .path(.popFrom(let id)):
        // The parent still sees the screen being popped.
        if state.path[id: id] != nil { state.popsSeen.append(id.rawValue) }
      case .path:
        break
      }
      return .none
    }
    .forEach(\.path, action: \.path) { Path() }
  }
}

@Suite struct StackReducerTests {
  @Test func pushRunAndPopScreens() async {
    let store = TestStore(initialState: App.State()) { App() }
    await store.send(.openCounter) { $0.path.append(.counter(Counter.State())) }
    await store.send(.path(.element(id: 0, action: .counter(.increment)))) {
      $0.path[id: 0] = .counter(Counter.State(count: 1))
    }
    await store.send(.path(.push(id: 1, state: .timer(Timer.State())))) {
      $0.path.append(.timer(Timer.State()))
    }
    await store.send(.path(.popFrom(id: 0))) {
      $0.popsSeen = [0]
      $0.path.removeAll()
    }
  }

  @Test func poppingCancelsTheScreensEffects() async {
    let clock = TestClock()
    let store = TestStore(initialState: App.State()) {
      App()
    } withDependencies: {
      $0.continuousClock = clock
    }
    await store.send(.path(.push(id: 0, state: .timer(Timer.State())))) {
      $0.path.append(.timer(Timer.State()))
    }
    await store.send(.path(.element(id: 0, action: .timer(.start))))
    await clock.advance(by: .seconds(1))
    await store.receive(.path(.element(id: 0, action: .timer(.tick)))) {
      $0.path[id: 0] = .timer(Timer.State(ticks: 1))
    }
    await store.send(.popAll) { $0.path.removeAll() }
    await clock.advance(by: .seconds(5))
    await store.finish()
  }

  @Test func actionsForMissingScreensWarnAndChangeNothing() {
    var state = App.State()
    state.path.append(.counter(Counter.State()))
    let before = state
    let issues = collectIssues {
      _ = App().reduce(into: &state, action: .path(.element(id: 5, action: .counter(.increment))))
      _ = App().reduce(into: &state, action: .path(.popFrom(id: 5)))
      _ = App().reduce(into: &state, action: .path(.push(id: 0, state: .counter(Counter.State()))))
    }
    #expect(state == before)
    #expect(issues.count == 3)
    #expect(issues[0].contains("an action for screen #5, which is not on the stack"))
    #expect(issues[1].contains("a pop from screen #5, which is not on the stack"))
    #expect(issues[2].contains("a push of screen #0, which is already on the stack"))
    #expect(issues.allSatisfy { $0.contains("StackReducerTests.swift:46") })
  }
}
