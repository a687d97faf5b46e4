import MIDIMonitorFeature
import PatchbayPlugin
import PatchbayTesting
import Testing

/// A stand-in for the Theory plugin's `note_name`: `C4` for 60.
let stubNoteName: @convention(c) (Int32, UnsafeMutablePointer<CChar>?, Int) -> Int32 = {
  note, out, capacity in
  let names = ["C", "C#", "D", "D#", "E", "F", "F#", "G", "G#", "A", "A#", "B"]
  let name = "\(names[Int(note) % 12])\(Int(note) / 12 - 1)"
  for (index, byte) in Array(name.utf8CString).prefix(capacity).enumerated() { out![index] = byte }
  return Int32(name.utf8.count)
}

@Suite struct MIDIMonitorTests {
  static func store() -> TestStore<MIDIMonitor.State, MIDIMonitor.Action> {
    TestStore(initialState: MIDIMonitor.initialState) {
      MIDIMonitor()
    } withDependencies: {
      $0.importedFunctions = ImportedFunctions([
        "note_name": unsafeBitCast(stubNoteName, to: UnsafeRawPointer.self)
      ])
    }
  }

  @Test func itListsMessagesNewestFirstWithNoteNames() async {
    let store = Self.store()
    await store.send(.midi(.noteOn(channel: 1, note: 60, velocity: 100))) {
      $0.heard = 1
      $0.held = [60]
      $0.events = [.init("ch 1  note on   C4 (60)    vel 100")]
    }
    await store.send(.midi(.controlChange(channel: 2, controller: 7, value: 90))) {
      $0.heard = 2
      $0.events.insert(.init("ch 2  control   #7         = 90"), at: 0)
    }
    await store.send(.midi(.noteOff(channel: 1, note: 60, velocity: 0))) {
      $0.heard = 3
      $0.held = []
      $0.events.insert(.init("ch 1  note off  C4 (60)"), at: 0)
    }
  }

  @Test func itKeepsTwentyPausesAndClears() async {
    let store = Self.store()
    store.exhaustivity = .off  // twenty-five messages: the count and the ends are checked
    for note in 40..<65 {
      await store.send(.midi(.noteOn(channel: 1, note: note, velocity: 64)))
    }
    #expect(store.state.events.count == 20)
    #expect(store.state.events.first?.text.contains("E4 (64)") == true)
    #expect(store.state.events.last?.text.contains("A2 (45)") == true)
    store.exhaustivity = .on
    await store.send(.togglePause) { $0.paused = true }
    // Paused: heard and held, not listed.
    await store.send(.midi(.noteOff(channel: 1, note: 64, velocity: 0))) {
      $0.heard = 26
      $0.held.removeLast()
    }
    await store.send(.clear) { $0.events = [] }
    await store.send(.resume) { $0.paused = false }
  }

  @Test func withoutTheoryNotesAreNumbered() async {
    let store = TestStore(initialState: MIDIMonitor.initialState) { MIDIMonitor() }
    await store.send(.midi(.noteOn(channel: 10, note: 36, velocity: 1))) {
      $0.heard = 1
      $0.held = [36]
      $0.events = [.init("ch 10 note on   note 36    vel 1")]
    }
  }

  @Test func theStripShowsTheKeysHeld() {
    var state = MIDIMonitor.State()
    state.held = [60, 61, 100]
    let lines = MIDIMonitor.render(state).split(separator: "\n", omittingEmptySubsequences: false)
      .map(String.init)
    // C4 is the 15th white key from C2; C#4 the 11th black key; 100 is beyond the strip.
    let white = Array(lines[3])
    let black = Array(lines[2])
    #expect(white[1 + 14] == "▓" && white.last == "▸")
    #expect(white.filter { $0 == "▓" }.count == 1)
    #expect(black.filter { $0 == "▓" }.count == 1)
    #expect(lines[0] == "MIDI Monitor — 0 heard")
  }
}
