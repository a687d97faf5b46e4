import PatchbayPlugin
import PatchbayTesting
import StudioFeature
import Testing

@Suite struct StudioTests {
  @Test func theMenuOpensTheSelectedScreen() async {
    let store = TestStore(initialState: Studio.initialState) { Studio() }
    await store.send(.up)
    await store.send(.down) { $0.selected = 1 }
    await store.send(.down) { $0.selected = 2 }
    await store.send(.down)
    await store.send(.select(index: 7))
    await store.send(.select(index: 1)) { $0.selected = 1 }
    await store.send(.open)
    let requests = store.takeRequests().compactMap { $0 as? Navigation }
    guard case .push(let node, _)? = requests.first else {
      Issue.record("expected a push, got \(requests)")
      return
    }
    #expect(node == "trainer")
    await store.send(.go(2)) { $0.selected = 2 }
    await store.send(.go(9))
    guard case .push(let monitor, _)? = store.takeRequests().compactMap({ $0 as? Navigation }).first
    else {
      Issue.record("expected a push")
      return
    }
    #expect(monitor == "monitor")
  }

  /// What others publish and tell it: the transport, the key, the MIDI input, the beats it
  /// counts as practice, and the trainer's scores.
  @Test func itShowsWhatOthersPublishAndKeepsProgress() async {
    let store = TestStore(initialState: Studio.initialState) { Studio() }
    await store.send(.transport(.init(tempo: 90, running: true))) {
      $0.tempo = 90
      $0.running = true
    }
    await store.send(.practice(.init(key: "D major", progression: "D A Bm G"))) {
      $0.key = "D major"
      $0.progression = "D A Bm G"
    }
    await store.send(.midiInput(.init(input: "seq"))) { $0.midiInput = "seq" }
    await store.send(.date(.init(day: "2026-11-25"))) { $0.today = "2026-11-25" }
    for _ in 0..<90 {
      await store.send(.metronome(.init("beat"))) {
        $0.secondsPlayed += 60.0 / 90
        $0.secondsToday += 60.0 / 90
      }
    }
    // A new day starts today's count again; the total stays.
    await store.send(.date(.init(day: "2026-11-26"))) {
      $0.today = "2026-11-26"
      $0.secondsToday = 0
    }
    await store.send(.metronome(.init("beat"))) {
      $0.secondsPlayed += 60.0 / 90
      $0.secondsToday += 60.0 / 90
    }
    await store.send(.metronome(.init("setAccent")))
    await store.send(.trainer(.delegate(.finished(score: 7, outOf: 10)))) {
      $0.bestScore = 7
      $0.lastScore = "7 of 10"
    }
    await store.send(.trainer(.delegate(.finished(score: 4, outOf: 10)))) {
      $0.lastScore = "4 of 10"
    }
    #expect(
      Studio.render(store.state).hasPrefix(
        "Patchbay Studio — 90 BPM ▶ · D major (D A Bm G) · MIDI in: seq\n"
          + "Today 0 min 0 s · Practised 1 min 0 s · best trainer score 7 (last 4 of 10)"))
  }
}
