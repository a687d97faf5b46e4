/// Builds a reducer from a list of reducers that run in order on the same state and action.
///
/// ```swift
/// var body: some Reducer<State, Action> {
///   Scope(state: \.child, action: \.child) { Child() }
///   Reduce { state, action in
///     // runs after the child
///     return .none
///   }
/// }
/// ```
@resultBuilder
public enum ReducerBuilder<State, Action> {
  public static func buildBlock() -> EmptyReducer<State, Action> {
    EmptyReducer()
  }

  public static func buildExpression<R: Reducer<State, Action>>(_ expression: R) -> R {
    expression
  }

  public static func buildPartialBlock<R: Reducer<State, Action>>(first: R) -> R {
    first
  }

  public static func buildPartialBlock<R0: Reducer<State, Action>, R1: Reducer<State, Action>>(
    accumulated: R0, next: R1
  ) -> _SequenceReducer<State, Action> {
    _SequenceReducer(accumulated, next)
  }

  public static func buildOptional<R: Reducer<State, Action>>(_ wrapped: R?) -> _OptionalReducer<
    State, Action
  > {
    _OptionalReducer(wrapped)
  }

  public static func buildEither<R: Reducer<State, Action>>(first reducer: R)
    -> _ConditionalReducer<State, Action>
  {
    _ConditionalReducer(reducer)
  }

  public static func buildEither<R: Reducer<State, Action>>(second reducer: R)
    -> _ConditionalReducer<State, Action>
  {
    _ConditionalReducer(reducer)
  }

  public static func buildArray<R: Reducer<State, Action>>(_ reducers: [R]) -> _ArrayReducer<
    State, Action
  > {
    _ArrayReducer(reducers)
  }

  public static func buildLimitedAvailability<R: Reducer<State, Action>>(_ wrapped: R)
    -> _OptionalReducer<State, Action>
  {
    _OptionalReducer(wrapped)
  }
}

/// Two reducers run one after the other; built by ``ReducerBuilder``.
public struct _SequenceReducer<State, Action>: Reducer {
  let first: any Reducer<State, Action>
  let second: any Reducer<State, Action>

  init(_ first: some Reducer<State, Action>, _ second: some Reducer<State, Action>) {
    self.first = first._compiled()
    self.second = second._compiled()
  }

  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    let firstEffect = self.first.reduce(into: &state, action: action)
    let secondEffect = self.second.reduce(into: &state, action: action)
    return firstEffect.merge(with: secondEffect)
  }
}

/// A reducer that exists only when an `if` in a builder held.
public struct _OptionalReducer<State, Action>: Reducer {
  let wrapped: (any Reducer<State, Action>)?

  init(_ wrapped: (some Reducer<State, Action>)?) {
    self.wrapped = wrapped?._compiled()
  }

  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    self.wrapped?.reduce(into: &state, action: action) ?? .none
  }
}

/// One branch of an `if`/`else` or `switch` in a builder.
public struct _ConditionalReducer<State, Action>: Reducer {
  let branch: any Reducer<State, Action>

  init(_ branch: some Reducer<State, Action>) {
    self.branch = branch._compiled()
  }

  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    self.branch.reduce(into: &state, action: action)
  }
}

/// Reducers built by a `for` loop in a builder, run in order.
public struct _ArrayReducer<State, Action>: Reducer {
  let reducers: [any Reducer<State, Action>]

  init(_ reducers: [some Reducer<State, Action>]) {
    self.reducers = reducers.map { $0._compiled() }
  }

  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    var effect = Effect<Action>.none
    for reducer in self.reducers {
      effect = effect.merge(with: reducer.reduce(into: &state, action: action))
    }
    return effect
  }
}
