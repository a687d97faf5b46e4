extension Reducer {
  /// Calls `log` after each action with the action and the state before and after it.
  ///
  /// The hook for recording, tracing and debugging: ``_printChanges(_:)`` is built on it.
  ///
  /// ```swift
  /// App().logActions { entry in
  ///   recorder.append(entry.action)
  /// }
  /// ```
  public func logActions(
    _ log: @escaping (ActionLogEntry<State, Action>) -> Void
  ) -> _ActionLogReducer<State, Action> {
    _ActionLogReducer(base: self._compiled(), log: log)
  }
}

/// One reduced action, as ``Reducer/logActions(_:)`` reports it.
public struct ActionLogEntry<State, Action> {
  /// The action.
  public let action: Action
  /// The state before the action.
  public let previousState: State
  /// The state after the action.
  public let state: State
}

/// The reducer ``Reducer/logActions(_:)`` builds.
public struct _ActionLogReducer<State, Action>: Reducer {
  let base: any Reducer<State, Action>
  let log: (ActionLogEntry<State, Action>) -> Void

  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    let previousState = state
    let effect = self.base.reduce(into: &state, action: action)
    self.log(ActionLogEntry(action: action, previousState: previousState, state: state))
    return effect
  }
}
