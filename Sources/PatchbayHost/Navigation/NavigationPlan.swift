import PatchbayConfig
import PatchbayRouting

/// What a navigation action does to the app, worked out before anything changes: the
/// navigation state after it, and the screens' instances to create and to destroy. A pure
/// value; the app executor carries it out (creating first, so a failed creation leaves the
/// app as it was).
///
/// ```swift
/// let plan = try router.plan(.push(node: "echo"), from: state).get()
/// plan.steps  // [.create(echo#1)]
/// try router.plan(.pop, from: plan.next).get().steps  // [.destroy(echo#1)]
/// ```
struct NavigationPlan: Equatable, Sendable {
  enum Step: Equatable, Sendable {
    /// Create the screen's instance (and its `child` features).
    case create(NavigationState.Route)
    /// Cancel the screen's effects and destroy its instance, with everything under it.
    case destroy(NavigationState.Route)
  }

  /// The navigation state once the plan is carried out.
  let next: NavigationState
  /// Creations bottom to top, then destructions top to bottom.
  let steps: [Step]
}

extension Router {
  /// The plan for `action` from `state`, or why the router refuses it.
  func plan(_ action: NavigationAction, from state: NavigationState) -> Result<
    NavigationPlan, AppError
  > {
    if let refusal = self.refusal(of: action, in: state) {
      return .failure(AppError(.navigationRefused(refusal)))
    }
    var next = state
    _ = self.reduce(into: &next, action: action)
    let before = state.routes
    let after = next.routes
    let created = after.filter { !before.contains($0) }.map(NavigationPlan.Step.create)
    let destroyed = before.reversed().filter { !after.contains($0) }.map(
      NavigationPlan.Step.destroy)
    return .success(NavigationPlan(next: next, steps: created + destroyed))
  }

  /// The navigation a route path asks for: `/echo` → deep link to [echo].
  func deepLink(_ path: String) -> Result<NavigationAction, AppError> {
    guard let route = self.config.route(path) else {
      return .failure(AppError(.noRoute(path: path, routes: self.config.routes.map(\.path))))
    }
    var chain: [String] = []
    var current: String? = route.node
    while let key = current, key != self.config.root {
      chain.insert(key, at: 0)
      current = self.config.node(key)?.parent
    }
    // Children scoped under a screen live with it; the stack holds the screens.
    let screens = chain.filter { self.config.node($0)?.kind != .child }
    return .success(.deepLink(nodes: screens))
  }
}
