import Patchbay
import PatchbayTesting
import Testing

private struct Session: Reducer {
  @CasePathable enum State: Equatable {
    case loggedOut
    case loggedIn(Counter.State)
  }
  @CasePathable enum Action: Equatable { case loggedIn(Counter.Action), logIn, logOut }
  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .logIn: state = .loggedIn(Counter.State())
      case .logOut: state = .loggedOut
      case .loggedIn: break
      }
      return .none
    }
    .ifCaseLet(\.loggedIn, action: \.loggedIn) { Counter() }
  }
}

@Suite struct IfCaseLetReducerTests {
  @Test func runsTheChildWhileInTheCase() async {
    let store = TestStore(initialState: Session.State.loggedOut) { Session() }
    await store.send(.logIn) { $0 = .loggedIn(Counter.State()) }
    await store.send(.loggedIn(.increment)) { $0 = .loggedIn(Counter.State(count: 1)) }
    await store.send(.logOut) { $0 = .loggedOut }
  }

  @Test func actionForAnotherCaseWarnsAndChangesNothing() {
    var state = Session.State.loggedOut
    let issues = collectIssues {
      _ = Session().reduce(into: &state, action: .loggedIn(.increment))
    }
    #expect(state == .loggedOut)
    #expect(issues.count == 1)
    #expect(
      issues.first?.contains("An 'ifCaseLet' at PatchbayTests/IfCaseLetReducerTests.swift:20")
        == true)
    #expect(issues.first?.contains("another case") == true)
  }
}
