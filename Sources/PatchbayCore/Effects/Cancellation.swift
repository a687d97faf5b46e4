extension Effect {
  /// Makes this effect cancellable by `id`, optionally cancelling any running effect with the
  /// same id first.
  ///
  /// ```swift
  /// enum CancelID { case search }
  ///
  /// case .queryChanged(let query):
  ///   return .run { send in
  ///     try await clock.sleep(for: .milliseconds(300))
  ///     await send(.results(try await api.search(query)))
  ///   }
  ///   .cancellable(id: CancelID.search, cancelInFlight: true)
  /// ```
  ///
  /// Ids are scoped to the feature instance that returned the effect: two rows of a list using
  /// the same id do not cancel each other.
  @inlinable
  public func cancellable(id: some Hashable & Sendable, cancelInFlight: Bool = false) -> Self {
    switch self.operation {
    case .none:
      return cancelInFlight ? .cancel(id: id) : .none
    default:
      return Self(.cancellable(id: EffectID(id), cancelInFlight: cancelInFlight, self))
    }
  }

  /// Cancels every running effect made cancellable with `id`.
  @inlinable
  public static func cancel(id: some Hashable & Sendable) -> Self {
    Self(.cancel(id: EffectID(id)))
  }

  /// The same effect with every cancellation id it declares or cancels moved into `scope`, so
  /// that identical ids of different feature instances stay apart.
  func scopingCancellation(to scope: EffectID) -> Self {
    switch self.operation {
    case .none, .send, .run, .request:
      return self
    case .merge(let effects):
      return Self(.merge(effects.map { $0.scopingCancellation(to: scope) }))
    case .concatenate(let effects):
      return Self(.concatenate(effects.map { $0.scopingCancellation(to: scope) }))
    case .cancellable(let id, let cancelInFlight, let effect):
      return Self(
        .cancellable(
          id: EffectID(ScopedEffectID(scope: scope, id: id)), cancelInFlight: cancelInFlight,
          effect.scopingCancellation(to: scope)
        )
      )
    case .cancel(let id):
      return Self(.cancel(id: EffectID(ScopedEffectID(scope: scope, id: id))))
    }
  }
}

/// A cancellation id inside one feature instance's scope.
struct ScopedEffectID: Hashable, Sendable {
  let scope: EffectID
  let id: EffectID
}
