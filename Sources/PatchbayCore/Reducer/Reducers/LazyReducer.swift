/// The reducer types whose `body` is being compiled on this task, outermost first: a type
/// met again is a recursive reducer (``Reducer/_compiled()``).
public enum _ReducerCompilation {
  @TaskLocal public static var compiling: Set<ObjectIdentifier> = []
}

/// A reducer whose body is compiled when the first action reaches it: a recursive reducer's
/// next level, which compiling up front would never finish.
///
/// ```swift
/// @Reducer struct Nested {
///   struct State { var rows: IdentifiedArrayOf<State> = [] }
///   var body: some ReducerOf<Self> {
///     Reduce { … }.forEach(\.rows, action: \.rows) { Self() }  // a _LazyReducer inside
///   }
/// }
/// ```
public struct _LazyReducer<Base: Reducer>: Reducer
where Base.Body: Reducer, Base.Body.State == Base.State, Base.Body.Action == Base.Action {
  let base: Base
  let compiled = CompiledOnce<Base.State, Base.Action>()

  init(_ base: Base) {
    self.base = base
  }

  public func reduce(into state: inout Base.State, action: Base.Action) -> Effect<Base.Action> {
    self.compiled.reducer { self.base.body._compiled() }.reduce(into: &state, action: action)
  }
}

/// A compiled reducer made once, by whichever call comes first.
final class CompiledOnce<State, Action>: @unchecked Sendable {
  private let compiled = LockedValue<(any Reducer<State, Action>)?>(nil)

  func reducer(_ compile: () -> any Reducer<State, Action>) -> any Reducer<State, Action> {
    self.compiled.withValue { compiled in
      if let compiled { return compiled }
      let reducer = compile()
      compiled = reducer
      return reducer
    }
  }
}
