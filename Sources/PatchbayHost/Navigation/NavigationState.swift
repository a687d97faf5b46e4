import PatchbayConfig
import PatchbayLoader

/// Where the app is: the screens pushed on the root, and what is presented over them.
///
/// Plain data (docs/ARCHITECTURE.md, "Navigation as state"): it can be printed, recorded, replayed
/// and restored. The root feature is always there and is not on the stack.
public struct NavigationState: Equatable, Sendable {
  /// One screen: a feature node of the config, and the id of its instance.
  public struct Route: Equatable, Hashable, Sendable, CustomStringConvertible {
    public let node: String
    public let instance: Int

    public init(node: String, instance: Int) {
      self.node = node
      self.instance = instance
    }

    /// `echo#2`: how paths and logs name the instance.
    public var description: String { "\(self.node)#\(self.instance)" }

    /// Where the screen's instance lives: `echo#2`, at the top of the app.
    public var path: InstancePath {
      InstancePath([InstancePath.Segment(key: self.node, instance: String(self.instance))])
    }
  }

  /// Screens pushed on the root, bottom first.
  public var stack: [Route] = []
  /// The feature presented over the stack, if any.
  public var presented: Route?
  /// The instance id the next created route gets.
  public var nextInstance = 1

  public init() {}

  /// Every live route, bottom to top.
  public var routes: [Route] { self.stack + (self.presented.map { [$0] } ?? []) }
}

/// What can happen to navigation. Features never navigate directly; they ask for one of
/// these, and the host sends it to the ``Router``.
public enum NavigationAction: Equatable, Sendable {
  case push(node: String)
  case pop
  case popToRoot
  case present(node: String)
  case dismiss
  /// Replaces the stack with the nodes of a route path (`/practice/quiz`).
  case deepLink(nodes: [String])
}

extension NavigationRequest {
  /// The router's action for this request.
  public var action: NavigationAction {
    switch self {
    case .push(let node, _): .push(node: node)
    case .present(let node, _): .present(node: node)
    case .pop: .pop
    case .popToRoot: .popToRoot
    case .dismiss: .dismiss
    }
  }
}
