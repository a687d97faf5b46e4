import PatchbayCore

extension Reducer {
  /// Runs `reducer` after this one whenever an action changed the value `toValue` reads.
  ///
  /// ```swift
  /// BindingReducer()
  ///   .onChange(of: \.query) { oldValue, newValue in
  ///     Reduce { state, _ in
  ///       state.results = []
  ///       return .send(.search(newValue))
  ///     }
  ///   }
  /// ```
  @inlinable
  public func onChange<Value: Equatable, Change: Reducer<State, Action>>(
    of toValue: @escaping (State) -> Value,
    @ReducerBuilder<State, Action> _ reducer:
      @escaping (_ oldValue: Value, _ newValue: Value)
      -> Change
  ) -> _OnChangeReducer<Self, Value, Change> {
    _OnChangeReducer(base: self, toValue: toValue, reducer: reducer)
  }
}

/// The reducer ``Reducer/onChange(of:_:)`` returns.
public struct _OnChangeReducer<
  Base: Reducer, Value: Equatable, Change: Reducer<Base.State, Base.Action>
>: Reducer {
  @usableFromInline let base: Base
  @usableFromInline let toValue: (Base.State) -> Value
  @usableFromInline let reducer: (Value, Value) -> Change

  @usableFromInline
  init(
    base: Base, toValue: @escaping (Base.State) -> Value,
    reducer: @escaping (Value, Value) -> Change
  ) {
    self.base = base
    self.toValue = toValue
    self.reducer = reducer
  }

  @inlinable
  public func reduce(into state: inout Base.State, action: Base.Action) -> Effect<Base.Action> {
    let oldValue = self.toValue(state)
    let effect = self.base.reduce(into: &state, action: action)
    let newValue = self.toValue(state)
    guard oldValue != newValue else { return effect }
    return .merge(effect, self.reducer(oldValue, newValue).reduce(into: &state, action: action))
  }
}
