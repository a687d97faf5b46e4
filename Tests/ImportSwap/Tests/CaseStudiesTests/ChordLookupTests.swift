import PatchbayTesting  // with TCA: import ComposableArchitecture
import Testing

@testable import CaseStudies

@MainActor
struct ChordLookupTests {
  @Test
  func lookingUpAChord() async {
    let store = TestStore(initialState: ChordLookup.State()) {
      ChordLookup()
    } withDependencies: {
      $0.chords.describe = { "chord on \($0)" }
    }

    await store.send(\.binding.root, 62) {
      $0.root = 62
    }
    await store.send(.lookUpButtonTapped) {
      $0.isLookingUp = true
    }
    await store.receive(\.described.success) {
      $0.description = "chord on 62"
      $0.isLookingUp = false
    }
  }

  @Test
  func aFailedLookupStopsLooking() async {
    struct Offline: Error {}
    let store = TestStore(initialState: ChordLookup.State()) {
      ChordLookup()
    } withDependencies: {
      $0.chords.describe = { _ in throw Offline() }
    }

    await store.send(.lookUpButtonTapped) {
      $0.isLookingUp = true
    }
    await store.receive(\.described.failure) {
      $0.isLookingUp = false
    }
  }

  @Test
  func theCancelButtonCancelsTheLookup() async {
    let store = TestStore(initialState: ChordLookup.State()) {
      ChordLookup()
    } withDependencies: {
      $0.chords.describe = { _ in try await Task.never() }
    }

    await store.send(.lookUpButtonTapped) {
      $0.isLookingUp = true
    }
    await store.send(.cancelButtonTapped) {
      $0.isLookingUp = false
    }
  }

  @Test
  func aNewRootCancelsTheLookup() async {
    let store = TestStore(initialState: ChordLookup.State()) {
      ChordLookup()
    } withDependencies: {
      $0.chords.describe = { _ in try await Task.never() }
    }

    await store.send(.lookUpButtonTapped) {
      $0.isLookingUp = true
    }
    await store.send(\.binding.root, 64) {
      $0.root = 64
      $0.isLookingUp = false
    }
  }

  @Test
  func theLiveClientNamesTheTriad() async throws {
    #expect(try await ChordClient.liveValue.describe(root: 62) == "D major: D, F♯, A")
  }
}
