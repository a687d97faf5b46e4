import Patchbay
import PatchbayConfig
import PatchbayFunctions

/// The navigation reducer: a pure function of ``NavigationState`` and ``NavigationAction``,
/// checked against the app's feature tree.
///
/// ```swift
/// var state = NavigationState()
/// _ = Router(config: app).reduce(into: &state, action: .push(node: "echo"))
/// state.stack  // [echo#1]
/// ```
///
/// A request that does not fit the tree changes nothing; ``refusal(of:in:)`` says why, so the
/// host can report it before sending.
package struct Router: Reducer {
  package let config: AppConfig

  package init(config: AppConfig) {
    self.config = config
  }

  package func reduce(into state: inout NavigationState, action: NavigationAction) -> Effect<
    NavigationAction
  > {
    guard self.refusal(of: action, in: state) == nil else { return .none }
    switch action {
    case .push(let node):
      state.stack.append(self.route(node, in: &state))
    case .pop:
      state.stack.removeLast()
    case .popToRoot:
      state.stack.removeAll()
    case .present(let node):
      state.presented = self.route(node, in: &state)
    case .dismiss:
      state.presented = nil
    case .deepLink(let nodes):
      state.presented = nil
      state.stack.removeAll()
      for node in nodes where node != self.config.root {
        let kind = self.config.node(node)?.kind
        if kind == .presented {
          state.presented = self.route(node, in: &state)
        } else {
          state.stack.append(self.route(node, in: &state))
        }
      }
    }
    return .none
  }

  private func route(_ node: String, in state: inout NavigationState) -> NavigationState.Route {
    defer { state.nextInstance += 1 }
    return NavigationState.Route(node: node, instance: state.nextInstance)
  }

  /// Why `action` cannot apply to `state`, or nil when it can.
  package func refusal(of action: NavigationAction, in state: NavigationState) -> String? {
    let keys = self.config.nodes.map(\.key)
    func check(_ node: String, _ kind: AppConfig.Kind) -> String? {
      guard let found = self.config.node(node) else {
        return "'\(node)' is not a feature of this app.\(suggestion(for: node, among: keys))"
      }
      guard found.kind == kind else {
        return
          "'\(node)' is a \(found.kind.rawValue) feature; only \(kind.rawValue) features can be "
          + (kind == .stack ? "pushed" : "presented") + ". Change its kind in the config, or use "
          + (found.kind == .presented ? "present" : found.kind == .stack ? "push" : "its parent")
          + "."
      }
      return nil
    }
    switch action {
    case .push(let node):
      if state.presented != nil { return "dismiss the presented feature before pushing." }
      return check(node, .stack)
    case .pop:
      return state.stack.isEmpty
        ? "nothing to pop: the root '\(self.config.root)' is showing." : nil
    case .popToRoot:
      return nil
    case .present(let node):
      if let presented = state.presented {
        return "'\(presented)' is already presented; dismiss it first."
      }
      return check(node, .presented)
    case .dismiss:
      return state.presented == nil ? "nothing is presented." : nil
    case .deepLink(let nodes):
      for node in nodes where self.config.node(node) == nil {
        return "'\(node)' is not a feature of this app.\(suggestion(for: node, among: keys))"
      }
      return nil
    }
  }
}
