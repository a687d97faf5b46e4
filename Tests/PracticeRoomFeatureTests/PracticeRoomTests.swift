import PatchbayPlugin
import PatchbayTesting
import PracticeRoomFeature
import Testing

/// The Practice screen's reducer, tested the TCA way: every change asserted (exhaustive).
@Suite struct PracticeRoomTests {
  @Test func aKeyPlaysFourChordsInIt() async {
    let store = TestStore(initialState: PracticeRoom.initialState) { PracticeRoom() }
    await store.send(.setKey("D")) {
      $0.key = 2
      $0.progression = [
        Chord(root: 2, .major), Chord(root: 9, .major), Chord(root: 11, .minor),
        Chord(root: 7, .major),
      ]
    }
    #expect(store.state.progression.map(\.symbol) == ["D", "A", "Bm", "G"])
    await store.send(.nextKey) {
      $0.key = 9
      $0.progression = Chord.fourChords(inKey: 9)
    }
    #expect(store.state.progression.map(\.symbol) == ["A", "E", "F#m", "D"])
    await store.send(.setKey("Am")) { $0.problem = "'Am' is not a major key: write C, F#, Bb…" }
    await store.send(.fourChords) { $0.problem = nil }
  }

  @Test func aTypedProgressionReplacesTheChordsOrSaysWhyNot() async {
    let store = TestStore(initialState: PracticeRoom.initialState) { PracticeRoom() }
    await store.send(.setProgression("Am F C G")) {
      $0.progression = [
        Chord(root: 9, .minor), Chord(root: 5, .major), Chord(root: 0, .major),
        Chord(root: 7, .major),
      ]
    }
    await store.send(.setProgression("Am H")) {
      $0.problem =
        "'H' is not a chord: write a root (C, F#, Bb) and m, dim, aug, 7, maj7 or m7"
    }
    await store.send(.setProgression("")) {
      $0.problem = "a progression has 1 to 16 chords, not 0: type them apart, as Am F C G"
    }
    await store.send(.setProgression("Bb7, Ebmaj7 | Cm7 Bdim")) {
      $0.progression = [
        Chord(root: 10, .dominant7), Chord(root: 3, .major7), Chord(root: 0, .minor7),
        Chord(root: 11, .diminished),
      ]
      $0.problem = nil
    }
  }

  @Test func theTransportBeatsAndChordsComeBackAsActions() async {
    let store = TestStore(initialState: PracticeRoom.initialState) { PracticeRoom() }
    await store.send(.toggle) { $0.isPlaying = true }
    await store.send(.transport(.init(tempo: 90, running: true, run: 1))) {
      $0.tempo = 90
      $0.running = true
      $0.run = 1
    }
    await store.send(.chord(index: 0)) {
      $0.currentChord = 0; $0.chordsPlayed = 1
    }
    await store.send(.beat(index: 0)) { $0.currentBeat = 0 }
    await store.send(.beat(index: 4)) { $0.currentBeat = 4 }
    await store.send(.chord(index: 1)) {
      $0.currentChord = 1; $0.chordsPlayed = 2
    }
    await store.send(.chord(index: 9))  // not in the progression: ignored
    // A new start counts from the first chord again.
    await store.send(.transport(.init(tempo: 90, running: true, run: 2))) {
      $0.run = 2
      $0.currentBeat = -1
      $0.currentChord = 0
    }
    await store.send(.setBeatsPerChord(40)) { $0.beatsPerChord = 16 }
    await store.send(.stop) { $0.isPlaying = false }
  }

  @Test func chordSymbolsRoundTripAndVoiceInOneRange() {
    for root in 0..<12 {
      for quality in Chord.Quality.allCases {
        let chord = Chord(root: root, quality)
        #expect(Chord(chord.symbol) == chord)
        #expect(chord.notes.first.map { (55...66).contains($0) } == true)
        #expect(Set(chord.notes.map { $0 % 12 }) == chord.pitchClasses)
      }
    }
    #expect(Chord("E♭m") == Chord(root: 3, .minor))
    #expect(Chord("X") == nil && Chord("Cmadd9") == nil)
  }

  @Test func theScreenShowsTheChordsTheBeatAndTheFretboard() {
    var state = PracticeRoom.State()
    state.isPlaying = true
    state.running = true
    state.currentBeat = 5
    state.currentChord = 1
    let view = PracticeRoom.render(state)
    #expect(view.contains("Progression  C [G] Am  F "))
    #expect(view.contains("Now G     Next Am    beat ○ ● ○ ○"))
    // G major on the low E string: G at fret 3 (the root), B at 7, D at 10, G at 15 (off).
    #expect(view.contains(" E  ║───┼───┼─◆─┼───┼───┼───┼─●─┼───┼───┼─●─┼───┼───┤"))
  }
}
