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

  /// Changes a dependency for this reducer and the effects it starts, from its current value.
  ///
  /// ```swift
  /// Child()
  ///   .transformDependency(\.self) { $0.locale = Locale(identifier: "fr_FR") }
  /// ```
  ///
  /// `transform` runs for each action and each effect as it starts, so it may read values
  /// that change over time.
  public func transformDependency<Value>(
    _ keyPath: WritableKeyPath<DependencyValues, Value> & Sendable,
    transform: @escaping @Sendable (_ dependency: inout Value) -> Void
  ) -> _DependencyReducer<State, Action> {
    _DependencyReducer(base: self._compiled()) { transform(&$0[keyPath: keyPath]) }
  }
}

/// The reducer ``Reducer/dependency(_:_:)`` builds.
public struct _DependencyReducer<State, Action>: Reducer {
  let base: any Reducer<State, Action>
  let update: (inout DependencyValues) -> Void

  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    let effect = withDependencies(self.update) {
      self.base.reduce(into: &state, action: action)
    }
    return effect.withDependencies(UncheckedBox(self.update))
  }
}

extension Effect {
  /// The same effect with every `run` operation seeing `update`d dependencies.
  package func withDependencies(_ update: UncheckedBox<(inout DependencyValues) -> Void>) -> Self {
    self.withDependencies(sending: { dependencies, _ in update.value(&dependencies) })
  }

  /// The same effect with every `run` operation seeing dependencies that `update` sets from
  /// the operation's own `send`: how a presented feature's effects learn to dismiss it.
  package func withDependencies(
    sending update: @escaping @Sendable (inout DependencyValues, Send<Action>) -> Void
  ) -> Self {
    self._wrappingRuns { operation in
      { send in
        await Dependencies.withDependencies({ update(&$0, send) }) {
          await operation(send)
        }
      }
    }
  }
}

extension Effect {
  /// The same effect with every `run` operation replaced by `wrap(operation)`: what runs
  /// around each operation (dependencies, a test's tracking), with the shape kept.
  package func _wrappingRuns(
    _ wrap: (nonisolated(nonsending) @escaping @Sendable (Send<Action>) async -> Void)
      -> nonisolated(nonsending) @Sendable (Send<Action>) async -> Void
  ) -> Self {
    switch self.operation {
    case .none, .send, .cancel, .request:
      return self
    case .run(let run):
      return Self._run(priority: run.priority, wrap(run.errors.catching(run.operation)))
    case .merge(let effects):
      return Self(.merge(effects.map { $0._wrappingRuns(wrap) }))
    case .concatenate(let effects):
      return Self(.concatenate(effects.map { $0._wrappingRuns(wrap) }))
    case .cancellable(let id, let cancelInFlight, let effect):
      return Self(
        .cancellable(id: id, cancelInFlight: cancelInFlight, effect._wrappingRuns(wrap)))
    }
  }
}
