import CasePaths
import PatchbayCore

extension Reducer {
  /// Runs a child reducer while the state is in one case of an enum, before this reducer.
  ///
  /// ```swift
  /// @CasePathable enum State { case loggedOut(Login.State), loggedIn(Home.State) }
  ///
  /// var body: some Reducer<State, Action> {
  ///   Reduce { state, action in /* switch between cases */ }
  ///     .ifCaseLet(\.loggedOut, action: \.login) { Login() }
  ///     .ifCaseLet(\.loggedIn, action: \.home) { Home() }
  /// }
  /// ```
  ///
  /// When this reducer moves the state out of the case, the child's effects are cancelled. A
  /// child action arriving while the state is in another case is reported as a warning.
  public func ifCaseLet<CaseState, CaseAction, Case: Reducer<CaseState, CaseAction>>(
    _ toCaseState: ActionPath<State, CaseState>,
    action toCaseAction: ActionPath<Action, CaseAction>,
    @ReducerBuilder<CaseState, CaseAction> then case: () -> Case,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> _IfCaseLetReducer<Self, CaseState, CaseAction>
  where
    State: CasePathable,
    Action: CasePathable
  {
    _IfCaseLetReducer(
      parent: self, statePath: toCaseState, toCaseState: State.casePath(toCaseState),
      toCaseAction: Action.casePath(toCaseAction), child: `case`()._compiled(),
      location: SourceLocation(fileID, filePath, line, column)
    )
  }
}

/// The reducer ``Reducer/ifCaseLet(_:action:then:fileID:filePath:line:column:)`` builds.
public struct _IfCaseLetReducer<Parent: Reducer, CaseState, CaseAction>: Reducer {
  let parent: Parent
  let statePath: AnyKeyPath
  let toCaseState: AnyCasePath<Parent.State, CaseState>
  let toCaseAction: AnyCasePath<Parent.Action, CaseAction>
  let child: any Reducer<CaseState, CaseAction>
  let location: SourceLocation

  public func reduce(into state: inout Parent.State, action: Parent.Action) -> Effect<
    Parent.Action
  > {
    let scope = ChildEffectScope(self.statePath)
    var childEffect = Effect<Parent.Action>.none
    if let caseAction = self.toCaseAction.extract(from: action) {
      if var caseState = self.toCaseState.extract(from: state) {
        let toCaseAction = self.toCaseAction
        childEffect = self.child.reduce(into: &caseState, action: caseAction)
          ._map { toCaseAction.embed($0) }
          .inChildScope(scope)
        state = self.toCaseState.embed(caseState)
      } else {
        runtimeWarn(
          """
          An 'ifCaseLet' at \(self.location) received a child action while the state was in \
          another case, and ignored it. Action: \(describe(action)). Likely cause: the parent \
          changed the case first, or an effect outlived it. Fix: send case actions only while \
          the state is in that case.
          """, location: self.location
        )
      }
    }
    let wasInCase = self.toCaseState.extract(from: state) != nil
    let parentEffect = self.parent.reduce(into: &state, action: action)
    if wasInCase, self.toCaseState.extract(from: state) == nil {
      return childEffect.merge(with: parentEffect).merge(with: .cancel(scope))
    }
    return childEffect.merge(with: parentEffect)
  }
}
