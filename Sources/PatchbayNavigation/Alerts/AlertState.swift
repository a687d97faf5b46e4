import CustomDump
import Foundation
import PatchbayComposition
import PatchbayCore

/// An alert as plain data (swift-navigation's `AlertState`): a title, buttons and a message.
/// A feature presents one by setting it, and a test asserts it by value.
///
/// ```swift
/// @Presents var alert: AlertState<Action.Alert>?
///
/// state.alert = AlertState {
///   TextState("Delete?")
/// } actions: {
///   ButtonState(role: .destructive, action: .confirmDeletion) { TextState("Delete") }
///   ButtonState(role: .cancel) { TextState("Cancel") }
/// } message: {
///   TextState("This cannot be undone.")
/// }
/// ```
///
/// With `.ifLet(\.$alert, action: \.alert)` (no child reducer), any button's action dismisses
/// it, after the parent saw the action. Two alerts are equal when their contents are.
public struct AlertState<Action>: Identifiable {
  public let id: UUID
  public var title: TextState
  public var message: TextState?
  public var buttons: [ButtonState<Action>]

  public init(
    title: () -> TextState,
    @ButtonStateBuilder<Action> actions: () -> [ButtonState<Action>] = { [] },
    message: (() -> TextState)? = nil
  ) {
    self.id = UUID()
    self.title = title()
    self.buttons = actions()
    self.message = message?()
  }

  /// This alert with its buttons' actions turned into another type's.
  public func map<NewAction>(_ transform: (Action?) -> NewAction?) -> AlertState<NewAction> {
    AlertState<NewAction>(
      title: { self.title }, actions: { self.buttons.map { $0.map(transform) } },
      message: self.message.map { message in { message } })
  }
}

extension AlertState: Equatable where Action: Equatable {
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.title == rhs.title && lhs.message == rhs.message && lhs.buttons == rhs.buttons
  }
}

extension AlertState: Hashable where Action: Hashable {
  public func hash(into hasher: inout Hasher) {
    hasher.combine(self.title)
    hasher.combine(self.message)
    hasher.combine(self.buttons)
  }
}

extension AlertState: Sendable where Action: Sendable {}

extension AlertState: CustomDumpReflectable {
  public var customDumpMirror: Mirror {
    var children: [(label: String?, value: Any)] = [("title", self.title)]
    if !self.buttons.isEmpty { children.append(("actions", self.buttons)) }
    if let message = self.message { children.append(("message", message)) }
    return Mirror(self, children: children, displayStyle: .struct)
  }
}

extension AlertState: _EphemeralState {
  public var _presentationID: UUID { self.id }
}
