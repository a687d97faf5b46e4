import PatchbayTesting  // with TCA: import ComposableArchitecture
import XCTest

@testable import CaseStudies

@MainActor
final class NoteCounterTests: XCTestCase {
  func testCountsNotesWhileShown() async {
    let (notes, play) = AsyncStream.makeStream(of: Void.self)
    let store = TestStore(initialState: NoteCounter.State()) {
      NoteCounter()
    } withDependencies: {
      $0.notes = { notes }
    }

    let task = await store.send(.task)
    play.yield()
    await store.receive(\.notePlayed) {
      $0.notesPlayed = 1
    }
    play.yield()
    await store.receive(\.notePlayed) {
      $0.notesPlayed = 2
    }

    // The screen goes away: the stream's effect ends, and later notes change nothing.
    await task.cancel()
    play.yield()
  }
}
