import Foundation
import PatchbayTesting  // with TCA: import ComposableArchitecture
import Testing

@testable import CaseStudies

@MainActor
struct PlaylistTests {
  let clock = TestClock()

  @Test
  func addingTracks() async {
    let store = TestStore(initialState: Playlist.State()) {
      Playlist()
    } withDependencies: {
      $0.uuid = .incrementing
    }

    await store.send(.addTrackButtonTapped) {
      $0.tracks.append(Track.State(id: UUID(0)))
    }
    await store.send(.addTrackButtonTapped) {
      $0.tracks = [Track.State(id: UUID(0)), Track.State(id: UUID(1))]
    }
  }

  @Test
  func renamingATrack() async {
    let store = TestStore(initialState: Playlist.State(tracks: [Track.State(id: UUID(0))])) {
      Playlist()
    }

    await store.send(\.tracks[id: UUID(0)].binding.title, "Blue in Green") {
      $0.tracks[id: UUID(0)]?.title = "Blue in Green"
    }
  }

  @Test
  func starredTracksMoveUpAfterAMoment() async {
    let state = Playlist.State(
      tracks: [
        Track.State(id: UUID(0), title: "So What"), Track.State(id: UUID(1), title: "Freddie"),
      ]
    )
    let store = TestStore(initialState: state) {
      Playlist()
    } withDependencies: {
      $0.continuousClock = clock
    }

    await store.send(\.tracks[id: UUID(1)].binding.isStarred, true) {
      $0.tracks[id: UUID(1)]?.isStarred = true
    }
    await clock.advance(by: .seconds(1))
    await store.receive(\.starredTracksMovedUp) {
      $0.tracks = [$0.tracks[1], $0.tracks[0]]
    }
  }

  @Test
  func quickStarringMovesTracksOnce() async {
    let state = Playlist.State(
      tracks: [Track.State(id: UUID(0)), Track.State(id: UUID(1)), Track.State(id: UUID(2))]
    )
    let store = TestStore(initialState: state) {
      Playlist()
    } withDependencies: {
      $0.continuousClock = clock
    }

    await store.send(\.tracks[id: UUID(2)].binding.isStarred, true) {
      $0.tracks[id: UUID(2)]?.isStarred = true
    }
    await clock.advance(by: .milliseconds(500))
    await store.send(\.tracks[id: UUID(1)].binding.isStarred, true) {
      $0.tracks[id: UUID(1)]?.isStarred = true
    }
    await clock.advance(by: .seconds(1))
    await store.receive(\.starredTracksMovedUp) {
      $0.tracks = [$0.tracks[1], $0.tracks[2], $0.tracks[0]]
    }
  }

  @Test
  func removingStarredTracks() async {
    let state = Playlist.State(
      tracks: [Track.State(id: UUID(0), isStarred: true), Track.State(id: UUID(1))]
    )
    let store = TestStore(initialState: state) {
      Playlist()
    }

    await store.send(.removeStarredButtonTapped) {
      $0.tracks = [Track.State(id: UUID(1))]
    }
  }

  @Test
  func showingOnlyStarredTracks() async {
    let state = Playlist.State(
      tracks: [Track.State(id: UUID(0), isStarred: true), Track.State(id: UUID(1))]
    )
    let store = TestStore(initialState: state) {
      Playlist()
    }

    await store.send(\.binding.showsOnlyStarred, true) {
      $0.showsOnlyStarred = true
    }
    #expect(store.state.visibleTracks.map(\.id) == [UUID(0)])
  }
}
