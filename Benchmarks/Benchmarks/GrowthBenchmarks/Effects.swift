import Benchmark
import BenchmarkSupport
import Patchbay

/// A counter that can start effects that wait until cancelled: `wait` starts one, each under
/// its own id, so none cancels another.
struct Waiting: Reducer {
  struct State: Equatable {
    var count = 0
    var started = 0
  }
  enum Action: Equatable { case increment, wait, stopAll }
  struct Waits: Hashable, Sendable { let number: Int }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .increment:
      state.count &+= 1
      return .none
    case .wait:
      state.started += 1
      return .run { _ in try await Task.sleep(for: .seconds(86_400)) }
        .cancellable(id: Waits(number: state.started))
    case .stopAll:
      return .merge((1...max(state.started, 1)).map { .cancel(id: Waits(number: $0)) })
    }
  }

  /// A store with `effects` of them in flight.
  static func store(effects: Int) -> Store<State, Action> {
    let store = Store(initialState: State()) { Waiting() }
    for _ in 0..<effects { store.send(.wait) }
    return store
  }
}

let effectBenchmarks: @Sendable () -> Void = {
  Growth(
    "effects: send while effects are in flight, in process", per: "effects",
    sizes: [0] + Growth.decades(to: 100_000)
  ).register {
    Waiting.store(effects: $0)
  } measure: { benchmark, store in
    for _ in benchmark.scaledIterations { store.send(.increment) }
  }
}
