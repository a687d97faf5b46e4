import Patchbay
import PatchbayTesting
import Testing

/// A list whose items are deleted after an alert asks; deleting the last one says so in a new
/// alert. TCA's own case study runs in Tests/ImportSwap (AlertsAndConfirmationDialogs.swift).
@Reducer
private struct Deleter {
  @ObservableState
  struct State: Equatable {
    var items: [String]
    @Presents var alert: AlertState<Action.Alert>?
  }

  enum Action {
    case alert(PresentationAction<Alert>)
    case deleteTapped(Int)

    @CasePathable
    enum Alert: Equatable {
      case confirmDeletion(Int)
    }
  }

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .alert(.presented(.confirmDeletion(let index))):
        state.items.remove(at: index)
        if state.items.isEmpty { state.alert = AlertState { TextState("Nothing left.") } }
        return .none
      case .alert:
        return .none
      case .deleteTapped(let index):
        state.alert = Self.confirmation(of: state.items[index], at: index)
        return .none
      }
    }
    .ifLet(\.$alert, action: \.alert)
  }

  static func confirmation(of item: String, at index: Int) -> AlertState<Action.Alert> {
    AlertState {
      TextState("Delete ") + TextState(item).bold() + TextState("?")
    } actions: {
      ButtonState(role: .destructive, action: .confirmDeletion(index)) { TextState("Delete") }
      ButtonState(role: .cancel) { TextState("Cancel") }
    }
  }
}

@MainActor
@Suite struct AlertTests {
  @Test func aConfirmedAlertActsAndIsDismissed() async {
    let store = TestStore(initialState: Deleter.State(items: ["a", "b"])) { Deleter() }
    await store.send(.deleteTapped(1)) {
      $0.alert = Deleter.confirmation(of: "b", at: 1)
    }
    await store.send(\.alert.confirmDeletion, 1) {
      $0.items = ["a"]
      $0.alert = nil
    }
  }

  @Test func anAlertPresentedWhileAnsweringOneStays() async {
    let store = TestStore(initialState: Deleter.State(items: ["a"])) { Deleter() }
    await store.send(.deleteTapped(0)) {
      $0.alert = Deleter.confirmation(of: "a", at: 0)
    }
    await store.send(\.alert.confirmDeletion, 0) {
      $0.items = []
      $0.alert = AlertState { TextState("Nothing left.") }
    }
    await store.send(\.alert.dismiss) { $0.alert = nil }
  }

  @Test func aCancelButtonSendsNothingAndOnlyDismisses() async {
    let store = TestStore(initialState: Deleter.State(items: ["a"])) { Deleter() }
    await store.send(.deleteTapped(0)) {
      $0.alert = Deleter.confirmation(of: "a", at: 0)
    }
    let cancel = store.state.alert?.buttons.last
    #expect(cancel?.role == .cancel)
    #expect(cancel?.action.action == nil)  // a view sends `dismiss` for it
    await store.send(\.alert.dismiss) { $0.alert = nil }
  }

  @Test func aWrongExpectedAlertFailsWithADiffOfItsText() async {
    let store = TestStore(initialState: Deleter.State(items: ["a"])) { Deleter() }
    await withKnownIssue {
      await store.send(.deleteTapped(0)) {
        $0.alert = AlertState { TextState("Delete a?") }
      }
    } matching: { issue in
      "\(issue)".contains("Delete a?") && "\(issue)".contains("label: \"Cancel\"")
    }
  }

  @Test(arguments: [true, false])
  func buttonsAreBuiltWithIfAndFor(cancellable: Bool) {
    let alert = AlertState<Int> {
      TextState("Pick")
    } actions: {
      for number in 1...3 {
        ButtonState(action: number) { TextState("\(number)") }
      }
      if cancellable {
        ButtonState(role: .cancel) { TextState("Cancel") }
      }
    }
    #expect(alert.buttons.map(\.action.action) == (cancellable ? [1, 2, 3, nil] : [1, 2, 3]))
    #expect(alert.map { $0.map(String.init) }.buttons.first?.action.action == "1")
  }

  @Test func textStateJoinsRunsAndKeepsTheirEmphasis() {
    let title = TextState("Delete ") + TextState("3 items").bold() + TextState("?")
    #expect(String(state: title) == "Delete 3 items?")
    #expect(title != TextState("Delete 3 items?"))  // the emphasis differs
    #expect(TextState("a").bold().bold(isActive: false) == TextState("a"))
  }
}
