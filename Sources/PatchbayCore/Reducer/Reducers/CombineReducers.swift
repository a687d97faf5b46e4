/// Groups reducers that run in order on the same state, so modifiers apply to all of them.
///
/// ```swift
/// var body: some Reducer<State, Action> {
///   CombineReducers {
///     Validation()
///     Submission()
///   }
///   ._printChanges()
/// }
/// ```
public struct CombineReducers<State, Action>: Reducer {
  let reducers: any Reducer<State, Action>

  public init<R: Reducer<State, Action>>(
    @ReducerBuilder<State, Action> _ build: () -> R
  ) {
    self.reducers = build()._compiled()
  }

  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    self.reducers.reduce(into: &state, action: action)
  }
}
