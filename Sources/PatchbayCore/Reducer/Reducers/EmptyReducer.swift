/// A reducer that changes nothing and returns no effect.
///
/// Useful as a placeholder, and what an empty ``ReducerBuilder`` block builds.
public struct EmptyReducer<State, Action>: Reducer {
  public init() {}

  @inlinable
  public func reduce(into _: inout State, action _: Action) -> Effect<Action> {
    .none
  }
}
