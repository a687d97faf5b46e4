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

/// The in-process reference for the send through the C ABI: a reducer of the Counter plugin's
/// shape (Plugins/Counter), so that the two sends differ in their path only. Its state has
/// three fields, its action seven cases, and it holds a `@Dependency`, whose copy each reduce
/// pays for; `increment`, the action both benchmarks send, adds the step and stops at the
/// bounds, as the plugin's does. The other cases give the enum its shape and start no effects.
struct PluginShapedCounter: Reducer {
  struct State: Equatable {
    var count = 0
    var step = 1
    var pending = 0
  }
  enum Action: Equatable {
    case increment, decrement, reset, setStep(by: Int), incrementLater(ms: Int)
    case rampUp(times: Int), delayedIncrement
  }
  @Dependency(\.continuousClock) var clock

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .increment, .delayedIncrement:
      let (sum, overflow) = state.count.addingReportingOverflow(state.step)
      state.count = overflow ? (state.step > 0 ? .max : .min) : sum
    case .decrement: state.count = state.count &- state.step
    case .reset: state.count = 0
    case .setStep(let step): state.step = step
    case .incrementLater: state.pending += 1
    case .rampUp: break
    }
    return .none
  }
}
