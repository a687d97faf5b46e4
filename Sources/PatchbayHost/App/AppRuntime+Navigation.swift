import Foundation
import Patchbay
import PatchbayABI
import PatchbayEncoding

/// Navigation: commands, the requests features make, and the instances each step creates or
/// destroys. On the app queue.
extension AppRuntime {
  /// Applies the navigation requests made so far, in order. On the app queue.
  func applyPendingNavigation() {
    while !self.pendingNavigation.isEmpty {
      let (request, path) = self.pendingNavigation.removeFirst()
      do {
        try self.navigateHere(request.action, state: request.state)
      } catch {
        self.fail(path: path, "navigation \(request) refused: \(error)")
      }
    }
  }

  /// A feature asked to navigate: applied after the action that asked.
  func navigationRequested(_ request: NavigationRequest, from path: String) {
    if self.executor.isCurrent {
      self.pendingNavigation.append((request, path))
    } else {
      self.executor.enqueue { [weak self] in
        self?.pendingNavigation.append((request, path))
        self?.applyPendingNavigation()
      }
    }
  }

  /// Applies a navigation request, creating and destroying instances to match. A created
  /// instance starts from `state` (snapshot bytes) when given.
  public func navigate(_ action: NavigationAction, state: [UInt8]? = nil) throws(AppError) {
    try self.executor.sync { () throws(AppError) in
      try self.command { () throws(AppError) in try self.navigateHere(action, state: state) }
    }
  }

  /// ``navigate(_:state:)``, on the app queue.
  func navigateHere(_ action: NavigationAction, state: [UInt8]?) throws(AppError) {
    let removed = try self.applyNavigation(action, state: state)
    for handle in removed.reversed() { handle.cancelEffects() }
    self.changeHandler.value?(.navigation(action, self.navigationState, initial: state))
  }

  /// Moves navigation to its next state: creates the new routes' instances first (undoing
  /// them if one fails, so a failed request changes nothing), then takes the gone routes'
  /// instances out of the app and returns them.
  func applyNavigation(_ action: NavigationAction, state: [UInt8]?) throws(AppError)
    -> [FeatureHandle]
  {
    if let refusal = self.router.refusal(of: action, in: self.navigationState) {
      throw AppError(refusal)
    }
    var next = self.navigationState
    _ = self.router.reduce(into: &next, action: action)
    let before = self.navigationState.routes
    let after = next.routes
    try self.allOrNothing { () throws(AppError) in
      for route in after where !before.contains(route) {
        try self.create(node: route.node, at: route.description, state: state)
      }
    }
    self.navigationState = next
    var removed: [FeatureHandle] = []
    for route in before.reversed() where !after.contains(route) {
      removed += self.remove(prefix: route.description)
    }
    return removed
  }

  /// Follows a route path (`/echo`): navigation as a deep link.
  public func follow(route path: String) throws(AppError) {
    switch self.router.deepLink(path) {
    case .success(let action): try self.navigate(action)
    case .failure(let error): throw AppError(error.description)
    }
  }
}
