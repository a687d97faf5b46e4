import PatchbayABI

/// What a feature asked the host for through "patchbay.navigation/1": the app's router
/// turns it into a ``NavigationAction`` and applies it after the action that asked.
public enum NavigationRequest: Equatable, Sendable, CustomStringConvertible {
  case push(node: String, state: [UInt8]?)
  case present(node: String, state: [UInt8]?)
  case pop
  case popToRoot
  case dismiss

  /// The request "patchbay.navigation/1"'s `navigate` makes of its arguments (`node` and
  /// `state` count for push and present only); nil for a kind the ABI does not have.
  package init?(kind: pb_navigation_kind, node: String, state: [UInt8]?) {
    switch kind {
    case PB_NAVIGATE_PUSH: self = .push(node: node, state: state)
    case PB_NAVIGATE_PRESENT: self = .present(node: node, state: state)
    case PB_NAVIGATE_POP: self = .pop
    case PB_NAVIGATE_POP_TO_ROOT: self = .popToRoot
    case PB_NAVIGATE_DISMISS: self = .dismiss
    default: return nil
    }
  }

  /// The initial state the request gives the new instance, if any.
  public var state: [UInt8]? {
    switch self {
    case .push(_, let state), .present(_, let state): state
    default: nil
    }
  }

  /// `push(node: "echo")`, `pop`: the request as the navigation action it asks for.
  public var description: String {
    switch self {
    case .push(let node, _): "push(node: \(node.debugDescription))"
    case .present(let node, _): "present(node: \(node.debugDescription))"
    case .pop: "pop"
    case .popToRoot: "popToRoot"
    case .dismiss: "dismiss"
    }
  }
}
