import Patchbay

/// Three levels of features, each scoping the next: `Outer → Middle → Inner → Counter`.
struct Inner: Reducer {
  struct State: Equatable, Sendable { var counter = Counter.State() }
  @CasePathable enum Action: Equatable, Sendable { case counter(Counter.Action) }
  var body: some Reducer<State, Action> {
    Scope(state: \.counter, action: \.counter) { Counter() }
  }
}

struct Middle: Reducer {
  struct State: Equatable, Sendable { var inner = Inner.State() }
  @CasePathable enum Action: Equatable, Sendable { case inner(Inner.Action) }
  var body: some Reducer<State, Action> {
    Scope(state: \.inner, action: \.inner) { Inner() }
  }
}

struct Outer: Reducer {
  struct State: Equatable, Sendable {
    var middle = Middle.State()
    var childActionsSeen = 0
  }
  @CasePathable enum Action: Equatable, Sendable { case middle(Middle.Action) }
  var body: some Reducer<State, Action> {
    Scope(state: \.middle, action: \.middle) { Middle() }
    Reduce { state, action in
      state.childActionsSeen += 1
      return .none
    }
  }
}
