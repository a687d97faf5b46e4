import MetronomeFeature
import PatchbayPlugin
import PatchbayTesting
import Testing

@MainActor
@Suite struct MetronomeTests {
  @Test func startCountsBeatsFromOne() async {
    let store = TestStore(initialState: Metronome.State()) { Metronome() }
    await store.send(.start) {
      $0.running = true
      $0.run = 1
    }
    await store.send(.beat(index: 0)) {
      $0.lastBeat = 0
      $0.beatsPlayed = 1
    }
    #expect(store.state.beatInBar == 1)
    await store.send(.beat(index: 1)) {
      $0.lastBeat = 1
      $0.beatsPlayed = 2
    }
    #expect(store.state.beatInBar == 2)
  }

  /// A beat that is not the next one (a late event of an earlier run) changes nothing.
  @Test func aBeatOutOfOrderOrWhileStoppedIsIgnored() async {
    let store = TestStore(initialState: Metronome.State()) { Metronome() }
    await store.send(.beat(index: 0))
    await store.send(.start) {
      $0.running = true
      $0.run = 1
    }
    await store.send(.beat(index: 5))
  }

  @Test func tempoAndMeterStayInRange() async {
    let store = TestStore(initialState: Metronome.State()) { Metronome() }
    await store.send(.setTempo(bpm: 1_000)) { $0.tempo = 400 }
    await store.send(.setTempo(bpm: 90)) { $0.tempo = 90 }
    await store.send(.setBeatsPerBar(0)) { $0.beatsPerBar = 1 }
    await store.send(.setBeatsPerBar(3)) { $0.beatsPerBar = 3 }
    await store.send(.setAccent(false)) { $0.accent = false }
  }

  @Test func theViewShowsTheCurrentBeat() {
    var state = Metronome.State()
    state.running = true
    state.lastBeat = 5
    #expect(Metronome.render(state) == "Metronome — 120 BPM, 4/4, playing\n○ ● ○ ○")
  }

  @Test func parametersCarryWhatTheProcessorNeeds() {
    var state = Metronome.State()
    state.tempo = 90
    state.running = true
    state.run = 2
    let parameters = Metronome.parameters(for: state)
    #expect(parameters.running && parameters.run == 2 && parameters.tempo == 90)
    #expect(parameters.beatsPerBar == 4 && parameters.accent)
    // The processor's event for a beat, and back: the kind names the case, the value its index.
    let event = Metronome.event(.beat(index: 7), at: 3)
    #expect(event.frame == 3 && event.value == 7 && event.kind != 0)
    #expect(Metronome.action(for: event) == .beat(index: 7))
    // An action the processor does not send has no event; a kind nobody declared, no action.
    #expect(Metronome.event(.start, at: 0).kind == 0)
    #expect(Metronome.action(for: ProcessorEvent(frame: 3, kind: 99)) == nil)
  }

  @Test func midiStartAndStopStartAndStop() async {
    let store = TestStore(initialState: Metronome.State()) { Metronome() }
    await store.send(.midi(.start)) {
      $0.running = true
      $0.run = 1
    }
    await store.send(.midi(.noteOn(channel: 1, note: 60, velocity: 100)))
    await store.send(.midi(.stop)) { $0.running = false }
  }
}

@Suite struct MetronomeKeyActionTests {
  /// What the studio's keys send: space toggles, + and - change the tempo by 5 BPM.
  @Test func toggleFasterAndSlower() async {
    let store = TestStore(initialState: Metronome.initialState) { Metronome() }
    await store.send(.toggle) {
      $0.running = true
      $0.run = 1
    }
    await store.send(.faster) { $0.tempo = 125 }
    await store.send(.slower) { $0.tempo = 120 }
    await store.send(.toggle) { $0.running = false }
    var fast = Metronome.State()
    fast.tempo = 398
    let edge = TestStore(initialState: fast) { Metronome() }
    await edge.send(.faster) { $0.tempo = 400 }
  }
}
