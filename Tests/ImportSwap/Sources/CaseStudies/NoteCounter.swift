import Patchbay  // with TCA: import ComposableArchitecture

/// Counts the notes played while the screen is shown, from a stream the view's `.task` keeps
/// open (a long-living effect).
@Reducer
struct NoteCounter {
  @ObservableState
  struct State: Equatable {
    var notesPlayed = 0
  }

  enum Action {
    case notePlayed
    case task
  }

  @Dependency(\.notes) var notes

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .notePlayed:
        state.notesPlayed += 1
        return .none

      case .task:
        return .run { send in
          for await _ in await self.notes() {
            await send(.notePlayed)
          }
        }
      }
    }
  }
}

extension DependencyValues {
  /// The notes played, one element each.
  var notes: @Sendable () async -> AsyncStream<Void> {
    get { self[NotesKey.self] }
    set { self[NotesKey.self] = newValue }
  }
}

private enum NotesKey: DependencyKey {
  static let liveValue: @Sendable () async -> AsyncStream<Void> = { AsyncStream { _ in } }
}
