import CustomDump
import Foundation
import PatchbayComposition
import PatchbayCore

/// What a button means to a reader of the screen: an ordinary, a cancelling or a destructive
/// one (swift-navigation's `ButtonStateRole`).
public enum ButtonStateRole: Hashable, Sendable {
  case cancel, destructive
}

/// The action a button sends, or none: a cancel button usually sends nothing but the dismissal.
public struct ButtonStateAction<Action> {
  /// The action, or nil for a button that only dismisses.
  public let action: Action?

  init(action: Action?) {
    self.action = action
  }

  /// Sends `action` when the button is tapped (nil: nothing but the dismissal).
  public static func send(_ action: Action?) -> Self {
    Self(action: action)
  }

  /// This button's action, turned into another type's.
  public func map<NewAction>(_ transform: (Action?) -> NewAction?) -> ButtonStateAction<NewAction> {
    ButtonStateAction<NewAction>(action: transform(self.action))
  }
}

extension ButtonStateAction: Equatable where Action: Equatable {}
extension ButtonStateAction: Hashable where Action: Hashable {}
extension ButtonStateAction: Sendable where Action: Sendable {}

/// A button of an alert or a confirmation dialog, as plain data (swift-navigation's
/// `ButtonState`): its label, its role and the action it sends.
///
/// ```swift
/// ButtonState(role: .destructive, action: .confirmDeletion) { TextState("Delete") }
/// ButtonState(role: .cancel) { TextState("Cancel") }  // sends nothing; the alert closes
/// ```
///
/// Two buttons are equal when their labels, roles and actions are: `id` tells them apart on
/// screen only.
public struct ButtonState<Action>: Identifiable {
  public let id: UUID
  public let action: ButtonStateAction<Action>
  public let label: TextState
  public let role: ButtonStateRole?

  public init(
    role: ButtonStateRole? = nil, action: ButtonStateAction<Action> = .send(nil),
    label: () -> TextState
  ) {
    self.id = UUID()
    self.role = role
    self.action = action
    self.label = label()
  }

  public init(role: ButtonStateRole? = nil, action: Action, label: () -> TextState) {
    self.init(role: role, action: .send(action), label: label)
  }

  /// Calls `perform` with the button's action (nil for none): what a view does on a tap.
  public func withAction(_ perform: (Action?) -> Void) {
    perform(self.action.action)
  }

  /// This button with its action turned into another type's.
  public func map<NewAction>(_ transform: (Action?) -> NewAction?) -> ButtonState<NewAction> {
    ButtonState<NewAction>(role: self.role, action: self.action.map(transform)) { self.label }
  }
}

extension ButtonState: Equatable where Action: Equatable {
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.label == rhs.label && lhs.role == rhs.role && lhs.action == rhs.action
  }
}

extension ButtonState: Hashable where Action: Hashable {
  public func hash(into hasher: inout Hasher) {
    hasher.combine(self.label)
    hasher.combine(self.role)
    hasher.combine(self.action)
  }
}

extension ButtonState: Sendable where Action: Sendable {}

extension ButtonState: CustomDumpReflectable {
  public var customDumpMirror: Mirror {
    var children: [(label: String?, value: Any)] = []
    if let role = self.role { children.append(("role", role)) }
    children.append(("action", self.action.action as Any))
    children.append(("label", self.label))
    return Mirror(self, children: children, displayStyle: .struct)
  }
}

/// Builds the buttons of an alert or a dialog, with `if`, `else` and `for`.
@resultBuilder
public enum ButtonStateBuilder<Action> {
  public static func buildBlock(_ components: [ButtonState<Action>]...) -> [ButtonState<Action>] {
    components.flatMap { $0 }
  }
  public static func buildExpression(_ button: ButtonState<Action>) -> [ButtonState<Action>] {
    [button]
  }
  public static func buildExpression(_ buttons: [ButtonState<Action>]) -> [ButtonState<Action>] {
    buttons
  }
  public static func buildOptional(_ component: [ButtonState<Action>]?) -> [ButtonState<Action>] {
    component ?? []
  }
  public static func buildEither(first component: [ButtonState<Action>]) -> [ButtonState<Action>] {
    component
  }
  public static func buildEither(second component: [ButtonState<Action>]) -> [ButtonState<Action>] {
    component
  }
  public static func buildArray(_ components: [[ButtonState<Action>]]) -> [ButtonState<Action>] {
    components.flatMap { $0 }
  }
  public static func buildLimitedAvailability(_ component: [ButtonState<Action>])
    -> [ButtonState<Action>]
  {
    component
  }
}
