import Foundation
import Patchbay  // with TCA: import ComposableArchitecture

/// A playlist: tracks you rename and star, starred ones moving to the top a moment after the
/// last change (bindings in a collection, and a debounce by cancellation).
@Reducer
struct Track {
  @ObservableState
  struct State: Equatable, Identifiable {
    let id: UUID
    var title = ""
    var isStarred = false
  }

  enum Action: BindableAction {
    case binding(BindingAction<State>)
  }

  var body: some ReducerOf<Self> {
    BindingReducer()
  }
}

@Reducer
struct Playlist {
  @ObservableState
  struct State: Equatable {
    var showsOnlyStarred = false
    var tracks: IdentifiedArrayOf<Track.State> = []

    var visibleTracks: IdentifiedArrayOf<Track.State> {
      self.showsOnlyStarred ? self.tracks.filter(\.isStarred) : self.tracks
    }
  }

  enum Action: BindableAction {
    case addTrackButtonTapped
    case binding(BindingAction<State>)
    case removeStarredButtonTapped
    case starredTracksMovedUp
    case tracks(IdentifiedActionOf<Track>)
  }

  @Dependency(\.continuousClock) var clock
  @Dependency(\.uuid) var uuid

  private enum CancelID { case reorder }

  var body: some ReducerOf<Self> {
    BindingReducer()
    Reduce { state, action in
      switch action {
      case .addTrackButtonTapped:
        state.tracks.append(Track.State(id: self.uuid()))
        return .none

      case .binding:
        return .none

      case .removeStarredButtonTapped:
        state.tracks.removeAll(where: \.isStarred)
        return .none

      case .starredTracksMovedUp:
        let starred = state.tracks.filter(\.isStarred)
        let others = state.tracks.filter { !$0.isStarred }
        state.tracks = starred + others
        return .none

      case .tracks(.element(id: _, action: .binding(\.isStarred))):
        return .run { send in
          try await self.clock.sleep(for: .seconds(1))
          await send(.starredTracksMovedUp)
        }
        .cancellable(id: CancelID.reorder, cancelInFlight: true)

      case .tracks:
        return .none
      }
    }
    .forEach(\.tracks, action: \.tracks) {
      Track()
    }
  }
}
