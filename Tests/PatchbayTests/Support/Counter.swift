import Patchbay

/// The smallest feature: a count and a step.
struct Counter: Reducer {
  struct State: Equatable, Sendable {
    var count = 0
    var step = 1
  }

  @CasePathable
  enum Action: Equatable, Sendable {
    case increment
    case decrement
    case setStep(Int)
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .increment:
      state.count += state.step
    case .decrement:
      state.count -= state.step
    case .setStep(let step):
      state.step = step
    }
    return .none
  }
}
