/// A feature's logic: how an action changes the state, and what work runs next.
///
/// Write a reducer either by implementing ``reduce(into:action:)`` directly, or by composing
/// other reducers in ``body``:
///
/// ```swift
/// struct Counter: Reducer {
///   struct State: Equatable { var count = 0 }
///   enum Action { case increment, decrement }
///
///   func reduce(into state: inout State, action: Action) -> Effect<Action> {
///     switch action {
///     case .increment: state.count += 1
///     case .decrement: state.count -= 1
///     }
///     return .none
///   }
/// }
///
/// struct App: Reducer {
///   struct State { var counter = Counter.State() }
///   @CasePathable enum Action { case counter(Counter.Action) }
///
///   var body: some Reducer<State, Action> {
///     Scope(state: \.counter, action: \.counter) { Counter() }
///   }
/// }
/// ```
///
/// > Important: A store evaluates `body` once, when it is created, and keeps the composed
/// > reducer. Read dependencies (`@Dependency`) inside `reduce` or effects, never to decide the
/// > shape of `body`.
public protocol Reducer<State, Action> {
  /// The state the reducer works on.
  associatedtype State

  /// The actions the reducer understands.
  associatedtype Action

  /// The composed reducer, for reducers built from others; `Never` for ones that implement
  /// ``reduce(into:action:)`` directly.
  associatedtype Body

  /// Applies `action` to `state` and returns the work to run next.
  func reduce(into state: inout State, action: Action) -> Effect<Action>

  /// The reducers this one is composed of.
  @ReducerBuilder<State, Action>
  var body: Body { get }

  /// This reducer with every `body` evaluated, ready to run many actions.
  ///
  /// Stores and composing operators call it once; you never need to.
  func _compiled() -> any Reducer<State, Action>
}

extension Reducer where Body == Never {
  /// A reducer that implements ``reduce(into:action:)`` directly has no body.
  public var body: Body {
    fatalError(
      """
      '\(Self.self)' has no body. Reducers that implement 'reduce(into:action:)' directly \
      must not have their 'body' read.
      """
    )
  }
}

extension Reducer where Body: Reducer, Body.State == State, Body.Action == Action {
  /// Runs ``body``.
  @inlinable
  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    self.body.reduce(into: &state, action: action)
  }

  public func _compiled() -> any Reducer<State, Action> {
    let type = ObjectIdentifier(Self.self)
    let compiling = _ReducerCompilation.compiling
    // A reducer whose body holds itself (a tree: `.forEach(\.rows, action: \.rows) { Self() }`)
    // would be compiled forever; below its first level it is compiled when an action first
    // reaches it, as TCA evaluates `body` then.
    if compiling.contains(type) { return _LazyReducer(self) }
    return _ReducerCompilation.$compiling.withValue(compiling.union([type])) {
      self.body._compiled()
    }
  }
}

extension Reducer {
  public func _compiled() -> any Reducer<State, Action> {
    self
  }
}

/// A reducer's state type, for reducers used generically: `StateOf<Counter>`.
public typealias StateOf<R: Reducer> = R.State

/// A reducer's action type, for reducers used generically: `ActionOf<Counter>`.
public typealias ActionOf<R: Reducer> = R.Action

/// A reducer of `R`'s state and action, for bodies: `var body: some ReducerOf<Self>`.
public typealias ReducerOf<R: Reducer> = Reducer<R.State, R.Action>
