import Patchbay

/// A feature with a long-running effect, to see when composition cancels it.
struct Timer: Reducer {
  struct State: Equatable, Sendable { var ticks = 0 }

  @CasePathable
  enum Action: Equatable, Sendable {
    case start
    case tick
    case stop
  }

  enum CancelID { case timer }

  @Dependency(\.continuousClock) var clock

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .start:
      return .run { [clock] send in
        for await _ in clock.timer(interval: .seconds(1)) {
          await send(.tick)
        }
      }
      .cancellable(id: CancelID.timer, cancelInFlight: true)
    case .tick:
      state.ticks += 1
      return .none
    case .stop:
      return .cancel(id: CancelID.timer)
    }
  }
}
