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
