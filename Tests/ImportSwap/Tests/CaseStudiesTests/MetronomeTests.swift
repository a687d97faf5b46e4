import PatchbayTesting  // with TCA: import ComposableArchitecture
import XCTest

@testable import CaseStudies

@MainActor
final class MetronomeTests: XCTestCase {
  func testCountsBeatsInABar() async {
    let clock = TestClock()
    let store = TestStore(initialState: Metronome.State(beatsPerBar: 3)) {
      Metronome()
    } withDependencies: {
      $0.continuousClock = clock
    }

    await store.send(.startStopButtonTapped) {
      $0.isRunning = true
    }
    await clock.advance(by: .seconds(4))
    await store.receive(\.ticked) {
      $0.beat = 1
    }
    await store.receive(\.ticked) {
      $0.beat = 2
    }
    await store.receive(\.ticked) {
      $0.beat = 3
    }
    await store.receive(\.ticked) {
      $0.beat = 1
    }
    await store.send(.startStopButtonTapped) {
      $0.isRunning = false
      $0.beat = 0
    }
  }

  func testAFasterTempoRestartsTheTicks() async {
    let clock = TestClock()
    let store = TestStore(initialState: Metronome.State()) {
      Metronome()
    } withDependencies: {
      $0.continuousClock = clock
    }

    await store.send(.startStopButtonTapped) {
      $0.isRunning = true
    }
    await clock.advance(by: .milliseconds(900))
    await store.send(\.binding.bpm, 120) {
      $0.bpm = 120
    }
    await clock.advance(by: .milliseconds(500))
    await store.receive(\.ticked) {
      $0.beat = 1
    }
    await clock.advance(by: .milliseconds(500))
    await store.receive(\.ticked) {
      $0.beat = 2
    }
    await store.send(.onDisappear) {
      $0.isRunning = false
    }
  }
}
