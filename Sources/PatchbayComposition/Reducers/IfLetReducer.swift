import CasePaths
import PatchbayCore

extension Reducer {
  /// Runs a child reducer on optional child state while it is non-nil, before this reducer.
  ///
  /// ```swift
  /// var body: some Reducer<State, Action> {
  ///   Reduce { state, action in
  ///     // ...
  ///   }
  ///   .ifLet(\.editor, action: \.editor) { Editor() }
  /// }
  /// ```
  ///
  /// When this reducer sets the child state to nil, the child's effects are cancelled. A child
  /// action arriving while the state is nil changes nothing and is reported as a warning.
  public func ifLet<WrappedState, WrappedAction, Wrapped: Reducer<WrappedState, WrappedAction>>(
    _ toWrappedState: WritableKeyPath<State, WrappedState?>,
    action toWrappedAction: ActionPath<Action, WrappedAction>,
    @ReducerBuilder<WrappedState, WrappedAction> then wrapped: () -> Wrapped,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> _IfLetReducer<Self, WrappedState, WrappedAction> where Action: CasePathable {
    _IfLetReducer(
      parent: self, toWrappedState: toWrappedState,
      toWrappedAction: Action.casePath(toWrappedAction), wrapped: wrapped()._compiled(),
      location: SourceLocation(fileID, filePath, line, column)
    )
  }

  /// ``ifLet(_:action:then:fileID:filePath:line:column:)`` with any case key path.
  @_disfavoredOverload
  public func ifLet<WrappedState, WrappedAction, Wrapped: Reducer<WrappedState, WrappedAction>>(
    _ toWrappedState: WritableKeyPath<State, WrappedState?>,
    action toWrappedAction: CaseKeyPath<Action, WrappedAction>,
    @ReducerBuilder<WrappedState, WrappedAction> then wrapped: () -> Wrapped,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> _IfLetReducer<Self, WrappedState, WrappedAction> {
    _IfLetReducer(
      parent: self, toWrappedState: toWrappedState, toWrappedAction: AnyCasePath(toWrappedAction),
      wrapped: wrapped()._compiled(), location: SourceLocation(fileID, filePath, line, column)
    )
  }
}

/// The reducer ``Reducer/ifLet(_:action:then:fileID:filePath:line:column:)`` builds.
public struct _IfLetReducer<Parent: Reducer, WrappedState, WrappedAction>: Reducer {
  let parent: Parent
  let toWrappedState: WritableKeyPath<Parent.State, WrappedState?>
  let toWrappedAction: AnyCasePath<Parent.Action, WrappedAction>
  let wrapped: any Reducer<WrappedState, WrappedAction>
  let location: SourceLocation

  public func reduce(into state: inout Parent.State, action: Parent.Action) -> Effect<
    Parent.Action
  > {
    let scope = ChildEffectScope(self.toWrappedState)
    var childEffect = Effect<Parent.Action>.none
    if let wrappedAction = self.toWrappedAction.extract(from: action) {
      if state[keyPath: self.toWrappedState] == nil {
        runtimeWarn(
          """
          An 'ifLet' at \(self.location) received a child action while the child state was nil, \
          and ignored it. Action: \(describe(action)). Likely cause: the parent set the child \
          state to nil first, or an effect outlived the child. Fix: send child actions only while \
          the child exists, and cancel its effects (they are cancelled when this 'ifLet' sees \
          the state become nil).
          """, location: self.location
        )
      } else {
        let toWrappedAction = self.toWrappedAction
        childEffect = self.wrapped
          .reduce(into: &state[keyPath: self.toWrappedState]!, action: wrappedAction)
          ._map { toWrappedAction.embed($0) }
          .inChildScope(scope)
      }
    }
    let wasPresent = state[keyPath: self.toWrappedState] != nil
    let parentEffect = self.parent.reduce(into: &state, action: action)
    if wasPresent, state[keyPath: self.toWrappedState] == nil {
      return childEffect.merge(with: parentEffect).merge(with: .cancel(scope))
    }
    return childEffect.merge(with: parentEffect)
  }
}
