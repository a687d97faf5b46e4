import ChordTrainerFeature
import PatchbayPlugin
import PatchbayTesting
import Testing

/// A stand-in for the Theory plugin's `chord_name` (the same form: `D# minor/F#`), for
/// major and minor triads: the trainer's grading tested without loading a plugin.
let stubChordName:
  @convention(c) (UnsafePointer<UInt8>?, Int, UnsafeMutablePointer<CChar>?, Int) -> Int32 = {
    notes, count, out, capacity in
    let names = ["C", "C#", "D", "D#", "E", "F", "F#", "G", "G#", "A", "A#", "B"]
    let played = (0..<count).map { Int(notes![$0]) }
    let classes = Set(played.map { $0 % 12 })
    let bass = played.min() ?? 0
    var name = "unknown"
    for root in 0..<12 where classes.contains(root) {
      let above = Set(classes.map { ($0 - root + 12) % 12 })
      let quality = above == [0, 4, 7] ? "major" : above == [0, 3, 7] ? "minor" : nil
      guard let quality else { continue }
      name = "\(names[root]) \(quality)" + (bass % 12 == root ? "" : "/\(names[bass % 12])")
    }
    let bytes = Array(name.utf8CString)
    for (index, byte) in bytes.prefix(capacity).enumerated() { out![index] = byte }
    return Int32(name.utf8.count)
  }

@Suite struct ChordTrainerTests {
  static func store(
    _ state: ChordTrainer.State = ChordTrainer.initialState
  ) -> TestStore<ChordTrainer.State, ChordTrainer.Action> {
    TestStore(initialState: state) {
      ChordTrainer()
    } withDependencies: {
      $0.importedFunctions = ImportedFunctions([
        "chord_name": unsafeBitCast(stubChordName, to: UnsafeRawPointer.self)
      ])
    }
  }

  /// The notes of `triad` in inversion 0, 1 or 2, from C4 up.
  static func notes(_ triad: ChordTrainer.Triad, inversion: Int) -> [Int] {
    let root = 60 + triad.root
    var notes = [root, root + (triad.minor ? 3 : 4), root + 7]
    for _ in 0..<inversion { notes.append(notes.removeFirst() + 12) }
    return notes
  }

  /// Every inversion of the 24 major and minor triads, played on a MIDI keyboard, is graded
  /// right; every tenth ends a round (Results pushed, the Studio told).
  @Test func everyInversionOfEveryTriadIsGradedRight() async {
    let store = Self.store()
    var answered = 0
    for root in 0..<12 {
      for minor in [false, true] {
        for inversion in 0..<3 {
          let triad = ChordTrainer.Triad(root: root, minor: minor)
          await store.send(.ask(root: root, minor: minor)) { $0.target = triad }
          let notes = Self.notes(triad, inversion: inversion)
          await store.send(.midi(.noteOn(channel: 1, note: notes[0], velocity: 90))) {
            $0.held = [notes[0]]
          }
          await store.send(.midi(.noteOn(channel: 1, note: notes[1], velocity: 90))) {
            $0.held = Array(notes.prefix(2))
          }
          answered += 1
          let endsRound = answered % ChordTrainer.roundLength == 0
          await store.send(.midi(.noteOn(channel: 1, note: notes[2], velocity: 90))) {
            $0.held = notes
            $0.graded = true
            $0.verdict =
              "✓ " + (inversion == 0 ? "" : "")
              + Self.theoryName(triad, bass: notes[0])
            $0.target = ChordTrainer.draw(&$0.seed, after: triad)
            if endsRound {
              ($0.asked, $0.score, $0.misses) = (0, 0, 0)
            } else {
              $0.asked += 1
              $0.score += 1
            }
          }
          if endsRound {
            await store.receive(.delegate(.finished(score: 10, outOf: 10)))
            let pushes = store.takeRequests().compactMap { $0 as? Navigation }
            #expect(pushes.count == 1)
          }
          for (index, note) in notes.enumerated() {
            await store.send(.midi(.noteOff(channel: 1, note: note, velocity: 0))) {
              $0.held = Array(notes.dropFirst(index + 1))
              if index == 2 { $0.graded = false }
            }
          }
        }
      }
    }
    #expect(answered == 72)
  }

  static func theoryName(_ triad: ChordTrainer.Triad, bass: Int) -> String {
    let names = ["C", "C#", "D", "D#", "E", "F", "F#", "G", "G#", "A", "A#", "B"]
    let name = names[triad.root] + (triad.minor ? " minor" : " major")
    return bass % 12 == triad.root ? name : name + "/" + names[bass % 12]
  }

  /// The computer keyboard plays the same way: three keys make a chord, a wrong one says so
  /// and asks again.
  @Test func computerKeysPlayChordsAndAWrongOneIsSaid() async {
    var state = ChordTrainer.State()
    state.target = ChordTrainer.Triad(root: 3, minor: true)  // E♭ minor
    let store = Self.store(state)
    // C major from the C4 keys: a, d, g (0, 4, 7).
    await store.send(.key(0)) { $0.typed = [60] }
    await store.send(.key(4)) { $0.typed = [60, 64] }
    await store.send(.key(4)) { $0.typed = [60] }  // pressed again: let go
    await store.send(.key(4)) { $0.typed = [60, 64] }
    await store.send(.key(7)) {
      $0.typed = []
      $0.misses = 1
      $0.verdict = "✗ C major — not E♭ minor; try again"
    }
    await store.send(.octaveDown) { $0.octave = 3 }
    // E♭ minor in the C3 octave: E♭3 G♭3 B♭3.
    await store.send(.key(3)) { $0.typed = [51] }
    await store.send(.key(6)) { $0.typed = [51, 54] }
    await store.send(.key(10)) {
      $0.typed = []
      $0.score = 1
      $0.asked = 1
      $0.verdict = "✓ D# minor"
      $0.target = ChordTrainer.draw(&$0.seed, after: ChordTrainer.Triad(root: 3, minor: true))
    }
    await store.send(.skip) {
      $0.asked = 2
      $0.verdict = "Skipped \($0.target)"
      $0.target = ChordTrainer.draw(&$0.seed, after: $0.target)
    }
  }

  @Test func withoutTheoryItSaysItCannotGrade() async {
    let store = TestStore(initialState: ChordTrainer.initialState) { ChordTrainer() }
    await store.send(.key(0)) { $0.typed = [60] }
    await store.send(.key(4)) { $0.typed = [60, 64] }
    await store.send(.key(7)) {
      $0.typed = []
      $0.verdict = "Cannot grade: the Theory plugin's chord_name is not loaded."
    }
  }

  /// A chord_name that fails (a WebAssembly Theory out of fuel returns zero, and an empty
  /// out_string) is said, and grades nothing: no miss, no crash.
  @Test func aChordNameThatAnswersNothingGradesNothing() async {
    let silent:
      @convention(c) (UnsafePointer<UInt8>?, Int, UnsafeMutablePointer<CChar>?, Int)
        -> Int32 = { _, _, out, capacity in
          if let out, capacity > 0 { out[0] = 0 }
          return 0
        }
    let store = TestStore(initialState: ChordTrainer.initialState) {
      ChordTrainer()
    } withDependencies: {
      $0.importedFunctions = ImportedFunctions([
        "chord_name": unsafeBitCast(silent, to: UnsafeRawPointer.self)
      ])
    }
    await store.send(.key(0)) { $0.typed = [60] }
    await store.send(.key(4)) { $0.typed = [60, 64] }
    await store.send(.key(7)) {
      $0.typed = []
      $0.verdict = "Cannot grade: the Theory plugin's chord_name answered nothing."
    }
  }

  @Test func theDrawCoversEveryTriadAndNeverRepeats() {
    var seed = 0x5EED
    var previous = ChordTrainer.Triad(root: 0, minor: false)
    var seen = Set<String>()
    for _ in 0..<500 {
      let next = ChordTrainer.draw(&seed, after: previous)
      #expect(next != previous)
      seen.insert(next.description)
      previous = next
    }
    #expect(seen.count == 24)
  }

  @Test func resultsGoBackOrHome() async {
    let store = TestStore(initialState: TrainerResults.State(score: 7, outOf: 10)) {
      TrainerResults()
    }
    await store.send(.again)
    await store.send(.home)
    let requests = store.takeRequests().compactMap { $0 as? Navigation }
    #expect(requests.count == 2)
    #expect(TrainerResults.render(store.state) == "Results — 7 of 10 chords\n\n★★★★★★★☆☆☆")
  }
}
