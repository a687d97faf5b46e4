import CasePaths
import PatchbayComposition
import PatchbayCore

// `ifLet` and `forEach` for `@Reducer enum` destinations and stack screens: the case reducer
// knows its body, so the parent names only the state and the action.
extension Reducer {
  /// Runs the enum reducer of a presented destination: `.ifLet(\.$destination, action:
  /// \.destination)`, for `@Reducer enum Destination`.
  public func ifLet<DestinationState: CaseReducerState, DestinationAction>(
    _ toPresentationState: WritableKeyPath<State, PresentationState<DestinationState>>,
    action toPresentationAction: ActionPath<Action, PresentationAction<DestinationAction>>,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> _PresentationReducer<Self, DestinationState, DestinationAction>
  where Action: CasePathable, DestinationState.StateReducer.Action == DestinationAction {
    self.ifLet(
      toPresentationState, action: toPresentationAction,
      destination: { DestinationState.StateReducer.body },
      fileID: fileID, filePath: filePath, line: line, column: column
    )
  }

  /// Runs the enum reducer of a navigation stack's screens: `.forEach(\.path, action:
  /// \.path)`, for `@Reducer enum Path`.
  public func forEach<DestinationState: CaseReducerState, DestinationAction>(
    _ toStack: WritableKeyPath<State, StackState<DestinationState>>,
    action toStackAction: ActionPath<Action, StackAction<DestinationState, DestinationAction>>,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> _StackReducer<Self, DestinationState, DestinationAction>
  where Action: CasePathable, DestinationState.StateReducer.Action == DestinationAction {
    self.forEach(
      toStack, action: toStackAction, destination: { DestinationState.StateReducer.body },
      fileID: fileID, filePath: filePath, line: line, column: column
    )
  }
}
