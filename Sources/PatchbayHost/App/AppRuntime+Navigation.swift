import Foundation
import Patchbay
import PatchbayABI
import PatchbayEncoding

/// Navigation: commands and the requests features make, each planned by the ``Router`` and
/// carried out here. On the app queue.
extension AppRuntime {
  /// Applies a navigation request, creating and destroying instances to match. A created
  /// instance starts from `state` (snapshot bytes) when given.
  public func navigate(_ action: NavigationAction, state: [UInt8]? = nil) throws(AppError) {
    try self.executor.sync { () throws(AppError) in
      try self.command { () throws(AppError) in try self.navigateHere(action, state: state) }
    }
  }

  /// Follows a route path (`/echo`): navigation as a deep link.
  public func follow(route path: String) throws(AppError) {
    try self.navigate(try self.router.deepLink(path).get())
  }

  /// Applies the navigation requests made so far, in order.
  func applyPendingNavigation() {
    while !self.owned.pendingNavigation.isEmpty {
      let (request, path) = self.owned.pendingNavigation.removeFirst()
      do {
        try self.navigateHere(request.action, state: request.state)
      } catch {
        self.fail(
          AppError(
            .requestRefused(
              path: path.description, request: "\(request)", reason: error.description)))
      }
    }
  }

  /// ``navigate(_:state:)``, on the app queue: plans the step, then carries it out —
  /// creations first, undone if one fails (a refused step changes nothing), then
  /// destructions, whose effects are cancelled.
  func navigateHere(_ action: NavigationAction, state: [UInt8]?) throws(AppError) {
    try self.sharingAfter { () throws(AppError) in try self.step(action, state: state) }
  }

  private func step(_ action: NavigationAction, state: [UInt8]?) throws(AppError) {
    let plan = try self.router.plan(action, from: self.owned.navigation).get()
    var removed: [FeatureHandle] = []
    self.owned.keptForStep = nil
    defer { self.owned.keptForStep = nil }
    try self.allOrNothing { () throws(AppError) in
      for case .create(let route) in plan.steps {
        try self.create(node: route.node, at: route.path, state: state)
      }
    }
    self.owned.navigation = plan.next
    for case .destroy(let route) in plan.steps {
      removed += self.owned.instances.detachSubtree(at: route.path)
    }
    self.attachedPlayer.player?.stop(removed)
    for handle in removed.reversed() { handle.cancelEffects() }
    self.publish(
      .navigation(action, self.owned.navigation, initial: state ?? self.owned.keptForStep))
  }

  /// Runs `body`, which creates instances; if it throws, the instances it created are taken
  /// out again, so a failed request changes nothing.
  func allOrNothing(_ body: () throws(AppError) -> Void) throws(AppError) {
    let count = self.owned.instances.count
    do {
      try body()
    } catch {
      self.attachedPlayer.player?.stop(Array(self.owned.instances.handles[count...]))
      self.owned.instances.detach(after: count)
      throw error
    }
  }
}
