/// A reducer that is an enum of reducers: one feature per case, as a destination or a stack
/// element. `@Reducer enum` writes the conformance, its `State` and `Action` and its `body`.
///
/// ```swift
/// @Reducer
/// enum Destination {
///   case add(AddItem)
///   case edit(EditItem)
/// }
///
/// // In the parent:
/// .ifLet(\.$destination, action: \.destination)   // no trailing closure needed
/// .forEach(\.path, action: \.path)                 // for StackState<Path.State>
/// ```
public protocol CaseReducer<State, Action>: Reducer
where State: CaseReducerState, Body: Reducer, Body.State == State, Body.Action == Action {
  /// The cases' reducers, each scoped to its case.
  @ReducerBuilder<State, Action>
  static var body: Body { get }
}

extension CaseReducer {
  public var body: Body { Self.body }
}

/// The state of a ``CaseReducer``: it knows its reducer, so operators need no closure.
public protocol CaseReducerState {
  associatedtype StateReducer: CaseReducer where StateReducer.State == Self
}

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
