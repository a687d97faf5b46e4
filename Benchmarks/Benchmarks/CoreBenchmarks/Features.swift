import Patchbay
import Synchronization

/// The trivial counter every runtime is compared on.
struct Counter: Reducer {
  struct State: Equatable { var count = 0 }
  @CasePathable enum Action: Equatable { case increment }
  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    state.count &+= 1
    return .none
  }
}

/// Three `Scope`s deep: `Level3 → Level2 → Level1 → Counter`.
struct Level1: Reducer {
  struct State: Equatable { var counter = Counter.State() }
  @CasePathable enum Action: Equatable { case counter(Counter.Action) }
  var body: some Reducer<State, Action> {
    Scope(state: \.counter, action: \.counter) { Counter() }
  }
}

struct Level2: Reducer {
  struct State: Equatable { var level1 = Level1.State() }
  @CasePathable enum Action: Equatable { case level1(Level1.Action) }
  var body: some Reducer<State, Action> {
    Scope(state: \.level1, action: \.level1) { Level1() }
  }
}

struct Level3: Reducer {
  struct State: Equatable { var level2 = Level2.State() }
  @CasePathable enum Action: Equatable { case level2(Level2.Action) }
  var body: some Reducer<State, Action> {
    Scope(state: \.level2, action: \.level2) { Level2() }
  }
}

/// An effect that sends one action back: `start` → `.run { send(.done) }` → `done`.
struct RoundTrip: Reducer {
  struct State: Equatable { var done = 0 }
  enum Action: Equatable { case start, startSuspending, done }
  let completed: Completions
  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .start:
      return .run { send in await send(.done) }
    case .startSuspending:
      return .run { send in
        await Task.yield()
        await send(.done)
      }
    case .done:
      state.done &+= 1
      self.completed.count.add(1, ordering: .releasing)
      return .none
    }
  }
}

final class Completions: Sendable {
  let count = Atomic<Int>(0)
}
