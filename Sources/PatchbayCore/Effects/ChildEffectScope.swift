/// The cancellation scope of one child instance: effects of the child at `path` (and, for
/// collections, element `element`) are filed under it, so removing the child cancels them and
/// the same cancellation id in two children stays apart.
package struct ChildEffectScope: Hashable, @unchecked Sendable {
  let path: AnyKeyPath
  let element: AnyHashable?

  package init(_ path: AnyKeyPath, element: AnyHashable? = nil) {
    self.path = path
    self.element = element
  }

  var id: EffectID { EffectID(self) }
}

extension Effect {
  /// A child instance's effect, cancellable with its scope and with its own ids moved into it.
  package func inChildScope(_ scope: ChildEffectScope) -> Self {
    if case .none = self.operation { return self }
    let id = scope.id
    return Self(.cancellable(id: id, cancelInFlight: false, self.scopingCancellation(to: id)))
  }
}

extension Effect {
  /// Cancels every effect of a child instance: what removing the child does.
  package static func cancel(_ scope: ChildEffectScope) -> Self {
    .cancel(id: scope.id)
  }
}
