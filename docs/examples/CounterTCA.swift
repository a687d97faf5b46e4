// The bundled Counter (Plugins/Counter/Counter.swift) as the same feature written for The
// Composable Architecture 1.x: the same state, actions, effects and reducer, for comparing
// their length (`Benchmarks/Scripts/counter-vs-tca.py`). Not compiled here: TCA is not among
// this project's dependencies.
import ComposableArchitecture

/// A counter: the smallest useful feature, and the one every benchmark uses.
///
/// Actions: `increment`, `decrement`, `reset`, `setStep(by: 5)`, `incrementLater(ms: 250)`,
/// which increments after a delay from an effect, and `rampUp(times: 3)`, whose effect sends
/// `setStep(by: i)` and `increment` for i in 1…3.
@Reducer
public struct Counter {
  @ObservableState
  public struct State: Equatable, Sendable {
    public var count = 0
    public var step = 1
    public var pending = 0

    public init(count: Int = 0, step: Int = 1, pending: Int = 0) {
      (self.count, self.step, self.pending) = (count, step, pending)
    }
  }

  public enum Action: Equatable, Sendable {
    /// Adds the step
    case increment
    /// Subtracts the step
    case decrement
    /// Back to zero
    case reset
    /// Sets the step
    case setStep(by: Int)
    /// Adds the step after a delay
    case incrementLater(ms: Int)
    /// Adds 1, 2, …, times, from an effect
    case rampUp(times: Int)
    /// The delayed increment arriving
    case delayedIncrement
  }

  @Dependency(\.continuousClock) var clock

  public init() {}

  public var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .increment:
        state.count += state.step
        return .none
      case .decrement:
        state.count -= state.step
        return .none
      case .reset:
        state.count = 0
        return .none
      case .setStep(let step):
        state.step = step
        return .none
      case .incrementLater(let milliseconds):
        state.pending += 1
        return .run { [clock] send in
          try await clock.sleep(for: .milliseconds(max(0, milliseconds)))
          await send(.delayedIncrement)
        }
      case .rampUp(let times):
        // Sends setStep(by: i), increment pairs: the count is right only if they arrive in order.
        return .run { send in
          for step in 1...max(1, times) {
            await send(.setStep(by: step))
            await send(.increment)
          }
        }
      case .delayedIncrement:
        state.pending -= 1
        state.count += state.step
        return .none
      }
    }
  }
}
