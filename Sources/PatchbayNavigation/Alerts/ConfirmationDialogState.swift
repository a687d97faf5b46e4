import CustomDump
import Foundation
import PatchbayComposition
import PatchbayCore

/// Whether a confirmation dialog shows its title.
public enum ConfirmationDialogStateTitleVisibility: Hashable, Sendable {
  case automatic, hidden, visible
}

/// A confirmation dialog (an action sheet) as plain data (swift-navigation's
/// `ConfirmationDialogState`): a title, buttons and a message.
///
/// ```swift
/// state.confirmationDialog = ConfirmationDialogState {
///   TextState("Share")
/// } actions: {
///   ButtonState(action: .copyLink) { TextState("Copy link") }
///   ButtonState(role: .cancel) { TextState("Cancel") }
/// }
/// ```
///
/// Like ``AlertState``: any button's action dismisses it, through `.ifLet(\.$dialog, action:
/// \.dialog)`, and two dialogs are equal when their contents are.
public struct ConfirmationDialogState<Action>: Identifiable {
  public let id: UUID
  public var titleVisibility: ConfirmationDialogStateTitleVisibility
  public var title: TextState
  public var message: TextState?
  public var buttons: [ButtonState<Action>]

  public init(
    titleVisibility: ConfirmationDialogStateTitleVisibility = .automatic,
    title: () -> TextState,
    @ButtonStateBuilder<Action> actions: () -> [ButtonState<Action>] = { [] },
    message: (() -> TextState)? = nil
  ) {
    self.id = UUID()
    self.titleVisibility = titleVisibility
    self.title = title()
    self.buttons = actions()
    self.message = message?()
  }

  /// This dialog with its buttons' actions turned into another type's.
  public func map<NewAction>(_ transform: (Action?) -> NewAction?)
    -> ConfirmationDialogState<NewAction>
  {
    ConfirmationDialogState<NewAction>(
      titleVisibility: self.titleVisibility, title: { self.title },
      actions: { self.buttons.map { $0.map(transform) } },
      message: self.message.map { message in { message } })
  }
}

extension ConfirmationDialogState: Equatable where Action: Equatable {
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.titleVisibility == rhs.titleVisibility && lhs.title == rhs.title
      && lhs.message == rhs.message && lhs.buttons == rhs.buttons
  }
}

extension ConfirmationDialogState: Hashable where Action: Hashable {
  public func hash(into hasher: inout Hasher) {
    hasher.combine(self.titleVisibility)
    hasher.combine(self.title)
    hasher.combine(self.message)
    hasher.combine(self.buttons)
  }
}

extension ConfirmationDialogState: Sendable where Action: Sendable {}

extension ConfirmationDialogState: CustomDumpReflectable {
  public var customDumpMirror: Mirror {
    var children: [(label: String?, value: Any)] = []
    if self.titleVisibility != .automatic {
      children.append(("titleVisibility", self.titleVisibility))
    }
    children.append(("title", self.title))
    if !self.buttons.isEmpty { children.append(("actions", self.buttons)) }
    if let message = self.message { children.append(("message", message)) }
    return Mirror(self, children: children, displayStyle: .struct)
  }
}

extension ConfirmationDialogState: _EphemeralState {
  public var _presentationID: UUID { self.id }
}
