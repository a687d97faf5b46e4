import Patchbay  // with TCA: import ComposableArchitecture

/// A metronome: a timer effect that counts beats in a bar, started and stopped by a button and
/// restarted when the tempo changes.
@Reducer
struct Metronome {
  @ObservableState
  struct State: Equatable {
    var beat = 0
    var beatsPerBar = 4
    var bpm = 60
    var isRunning = false
  }

  enum Action: BindableAction {
    case binding(BindingAction<State>)
    case onDisappear
    case startStopButtonTapped
    case ticked
  }

  @Dependency(\.continuousClock) var clock

  private enum CancelID { case ticks }

  var body: some ReducerOf<Self> {
    BindingReducer()
    Reduce { state, action in
      switch action {
      case .binding(\.bpm):
        return state.isRunning ? self.ticks(bpm: state.bpm) : .none

      case .binding:
        return .none

      case .onDisappear:
        state.isRunning = false
        return .cancel(id: CancelID.ticks)

      case .startStopButtonTapped:
        state.isRunning.toggle()
        state.beat = 0
        return state.isRunning ? self.ticks(bpm: state.bpm) : .cancel(id: CancelID.ticks)

      case .ticked:
        state.beat = state.beat % state.beatsPerBar + 1
        return .none
      }
    }
  }

  private func ticks(bpm: Int) -> Effect<Action> {
    .run { send in
      for await _ in self.clock.timer(interval: .seconds(60) / max(1, bpm)) {
        await send(.ticked)
      }
    }
    .cancellable(id: CancelID.ticks, cancelInFlight: true)
  }
}
