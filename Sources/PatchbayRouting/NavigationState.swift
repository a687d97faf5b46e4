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

extension NavigationAction {
  /// Its name, as recordings and scripts write it: `push`, `present`, `pop`, `popToRoot`,
  /// `dismiss`, `deepLink`.
  public var name: String {
    switch self {
    case .push: "push"
    case .present: "present"
    case .pop: "pop"
    case .popToRoot: "popToRoot"
    case .dismiss: "dismiss"
    case .deepLink: "deepLink"
    }
  }

  /// The nodes it names: one for `push` and `present`, the path's for `deepLink`.
  public var nodes: [String] {
    switch self {
    case .push(let node), .present(let node): [node]
    case .deepLink(let nodes): nodes
    case .pop, .popToRoot, .dismiss: []
    }
  }

  /// The action of ``name`` and ``nodes``; nil when they do not make one.
  ///
  /// ```swift
  /// NavigationAction(name: "push", nodes: ["echo"])   // .push(node: "echo")
  /// NavigationAction(name: "pop", nodes: ["echo"])    // nil
  /// ```
  public init?(name: String, nodes: [String]) {
    switch (name, nodes.count) {
    case ("push", 1): self = .push(node: nodes[0])
    case ("present", 1): self = .present(node: nodes[0])
    case ("pop", 0): self = .pop
    case ("popToRoot", 0): self = .popToRoot
    case ("dismiss", 0): self = .dismiss
    case ("deepLink", _): self = .deepLink(nodes: nodes)
    default: return nil
    }
  }
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
