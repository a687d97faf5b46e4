import Dependencies

extension Reducer {
  /// Overrides a dependency for this reducer and the effects it starts.
  ///
  /// ```swift
  /// Scope(state: \.preview, action: \.preview) {
  ///   Preview()
  ///     .dependency(\.continuousClock, ImmediateClock())
  /// }
  /// ```
  public func dependency<Value>(
    _ keyPath: WritableKeyPath<DependencyValues, Value> & Sendable,
    _ value: Value
  ) -> _DependencyReducer<State, Action> {
    _DependencyReducer(base: self._compiled()) { $0[keyPath: keyPath] = value }
  }
}

/// The reducer ``Reducer/dependency(_:_:)`` builds.
public struct _DependencyReducer<State, Action>: Reducer {
  let base: any Reducer<State, Action>
  let update: (inout DependencyValues) -> Void

  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    withDependencies(self.update) {
      self.base.reduce(into: &state, action: action)
    }
  }
}
