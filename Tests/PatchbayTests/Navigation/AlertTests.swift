import Patchbay
import PatchbayTesting
import Testing

/// TCA's "Alerts and Confirmation Dialogs" case study, as TCA writes it.
@Reducer
private struct AlertAndConfirmationDialog {
  @ObservableState
  struct State: Equatable {
    @Presents var alert: AlertState<Action.Alert>?
    @Presents var confirmationDialog: ConfirmationDialogState<Action.ConfirmationDialog>?
    var count = 0
  }

  enum Action {
    case alert(PresentationAction<Alert>)
    case alertButtonTapped
    case confirmationDialog(PresentationAction<ConfirmationDialog>)
    case confirmationDialogButtonTapped

    @CasePathable
    enum Alert {
      case incrementButtonTapped
    }
    @CasePathable
    enum ConfirmationDialog {
      case decrementButtonTapped
      case incrementButtonTapped
    }
  }

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .alert(.presented(.incrementButtonTapped)),
        .confirmationDialog(.presented(.incrementButtonTapped)):
        state.alert = AlertState { TextState("Incremented!") }
        state.count += 1
        return .none

      case .alert:
        return .none

      case .alertButtonTapped:
        state.alert = AlertState {
          TextState("Alert!")
        } actions: {
          ButtonState(role: .cancel) {
            TextState("Cancel")
          }
          ButtonState(action: .incrementButtonTapped) {
            TextState("Increment")
          }
        } message: {
          TextState("This is an alert")
        }
        return .none

      case .confirmationDialog(.presented(.decrementButtonTapped)):
        state.alert = AlertState { TextState("Decremented!") }
        state.count -= 1
        return .none

      case .confirmationDialog:
        return .none

      case .confirmationDialogButtonTapped:
        state.confirmationDialog = ConfirmationDialogState {
          TextState("Confirmation dialog")
        } actions: {
          ButtonState(role: .cancel) {
            TextState("Cancel")
          }
          ButtonState(action: .incrementButtonTapped) {
            TextState("Increment")
          }
          ButtonState(action: .decrementButtonTapped) {
            TextState("Decrement")
          }
        } message: {
          TextState("This is a confirmation dialog.")
        }
        return .none
      }
    }
    .ifLet(\.$alert, action: \.alert)
    .ifLet(\.$confirmationDialog, action: \.confirmationDialog)
  }
}

@MainActor
@Suite struct AlertTests {
  @Test func anAlertIsShownConfirmedAndReplaced() async {
    let store = TestStore(initialState: AlertAndConfirmationDialog.State()) {
      AlertAndConfirmationDialog()
    }

    await store.send(.alertButtonTapped) {
      $0.alert = AlertState {
        TextState("Alert!")
      } actions: {
        ButtonState(role: .cancel) {
          TextState("Cancel")
        }
        ButtonState(action: .incrementButtonTapped) {
          TextState("Increment")
        }
      } message: {
        TextState("This is an alert")
      }
    }
    // The button's action dismisses the alert; the parent presented a new one meanwhile.
    await store.send(\.alert.incrementButtonTapped) {
      $0.alert = AlertState { TextState("Incremented!") }
      $0.count = 1
    }
    await store.send(\.alert.dismiss) {
      $0.alert = nil
    }
  }

  @Test func aConfirmationDialogIsShownAndAnsweredOnce() async {
    let store = TestStore(initialState: AlertAndConfirmationDialog.State()) {
      AlertAndConfirmationDialog()
    }

    await store.send(.confirmationDialogButtonTapped) {
      $0.confirmationDialog = ConfirmationDialogState {
        TextState("Confirmation dialog")
      } actions: {
        ButtonState(role: .cancel) {
          TextState("Cancel")
        }
        ButtonState(action: .incrementButtonTapped) {
          TextState("Increment")
        }
        ButtonState(action: .decrementButtonTapped) {
          TextState("Decrement")
        }
      } message: {
        TextState("This is a confirmation dialog.")
      }
    }
    // Answering dismisses the dialog, which the parent does not touch.
    await store.send(\.confirmationDialog.decrementButtonTapped) {
      $0.alert = AlertState { TextState("Decremented!") }
      $0.confirmationDialog = nil
      $0.count = -1
    }
  }

  @Test func anAlertsButtonThatSendsNothingOnlyDismisses() async {
    let store = TestStore(initialState: AlertAndConfirmationDialog.State()) {
      AlertAndConfirmationDialog()
    }
    store.exhaustivity = .off
    await store.send(.alertButtonTapped)
    let cancel = store.state.alert?.buttons.first
    #expect(cancel?.role == .cancel)
    #expect(cancel?.action.action == nil)  // a view sends `dismiss` for it
    await store.send(\.alert.dismiss) { $0.alert = nil }
  }

  @Test func aWrongExpectedAlertFailsWithADiffOfItsText() async {
    let store = TestStore(initialState: AlertAndConfirmationDialog.State()) {
      AlertAndConfirmationDialog()
    }
    await withKnownIssue {
      await store.send(.alertButtonTapped) {
        $0.alert = AlertState { TextState("Alert?") }
      }
    } matching: { issue in
      let text = issue.comments.map(\.rawValue).joined() + "\(issue)"
      return text.contains("Alert?") && text.contains("Alert!")
    }
  }

  @Test func textStateJoinsRunsAndKeepsTheirEmphasis() {
    let title = TextState("Delete ") + TextState("3 items").bold() + TextState("?")
    #expect(String(state: title) == "Delete 3 items?")
    #expect(title != TextState("Delete 3 items?"))  // the emphasis differs
    #expect(TextState("a").bold().bold(isActive: false) == TextState("a"))
  }
}
