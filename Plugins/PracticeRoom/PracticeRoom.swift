import PatchbayPlugin

/// The Practice screen: a chord progression played through the Synth by a sequencer on the
/// audio thread, in time with the Metronome, with the chord on a guitar fretboard.
///
/// It keeps time without importing the Metronome: the host delivers the Metronome's
/// published transport as `transport(…)` ("patchbay.shared/1"). Its processor counts beats
/// from the same frame the Metronome clicks from, sends the chord's notes as MIDI to the
/// processors after it (the Synth) at the beat's exact frame, and tells the reducer each beat
/// and each chord change (`beat(index:)`, `chord(index:)`).
///
/// Actions: `play`, `stop`, `toggle`, `setKey(_: "D")`, `nextKey`, `setProgression(_: "Am F
/// C G")`, `fourChords` (I–V–vi–IV in the key), `setBeatsPerChord(_: 2)`.
@Feature
public struct PracticeRoom: AudioFeature {
  public static let id = "dev.patchbay.practice-room"
  public static let name = "Practice"
  public static let summary = "Plays a chord progression through the Synth, on a fretboard."
  public static let subscriptions = [SharedSubscription("transport", as: "transport")]
  /// Practice progress is kept: a config marks the node `persist = true`.
  public static var schemaVersion: UInt32 { 1 }

  public struct State: Codable, Equatable, Sendable {
    /// The major key, 0 (C) to 11 (B).
    public var key = 0
    public var progression = Chord.fourChords(inKey: 0)
    public var beatsPerChord = 4
    /// Whether the chords sound while the Metronome runs.
    public var isPlaying = false
    public var tempo = 120.0
    /// The Metronome's: whether it runs, and which start this is.
    public var running = false
    public var run = 0
    /// Beats since the Metronome started (the processor's count); -1 before the first.
    public var currentBeat = -1
    /// The chord sounding, an index into the progression.
    public var currentChord = 0
    public var chordsPlayed = 0
    /// Why the last typed progression or key was refused.
    public var problem: String?

    public init() {}

    public var nextChord: Int { (self.currentChord + 1) % max(1, self.progression.count) }
  }

  /// The Metronome's transport as it publishes it (fields it adds later are skipped).
  public struct Transport: Codable, Equatable, Sendable {
    public var tempo: Double
    public var running: Bool
    public var run: Int

    public init(tempo: Double, running: Bool, run: Int) {
      (self.tempo, self.running, self.run) = (tempo, running, run)
    }
  }

  public enum Action: Codable, Equatable, Sendable {
    /// Plays the chords while the Metronome runs
    case play
    /// Stops playing the chords
    case stop
    /// Plays or stops the chords
    case toggle
    /// The key a fifth up, with I–V–vi–IV in it
    case nextKey
    /// I–V–vi–IV in the key
    case fourChords
    /// A major key: C, F#, Bb…; plays I–V–vi–IV in it
    case setKey(String)
    /// Chords as typed: Am F C G
    case setProgression(String)
    /// 1 to 16
    case setBeatsPerChord(Int)
    /// The Metronome's
    @SentBy(.host) case transport(Transport)
    /// A beat
    @SentBy(.processor) case beat(index: Int)
    /// A chord change
    @SentBy(.processor) case chord(index: Int)
  }

  public init() {}

  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .play: state.isPlaying = true
    case .stop: state.isPlaying = false
    case .toggle: state.isPlaying.toggle()
    case .setKey(let name):
      guard let chord = Chord(name), chord.quality == .major else {
        state.problem = "'\(name)' is not a major key: write C, F#, Bb…"
        return .none
      }
      state.key = chord.root
      state.progression = Chord.fourChords(inKey: chord.root)
      state.problem = nil
    case .nextKey:
      state.key = (state.key + 7) % 12
      state.progression = Chord.fourChords(inKey: state.key)
      state.problem = nil
    case .fourChords:
      state.progression = Chord.fourChords(inKey: state.key)
      state.problem = nil
    case .setProgression(let text):
      switch Chord.progression(text) {
      case .success(let chords):
        state.progression = chords
        state.problem = nil
      case .failure(let error):
        state.problem = error.description
      }
    case .setBeatsPerChord(let beats):
      state.beatsPerChord = min(max(beats, 1), 16)
    case .transport(let transport):
      state.tempo = transport.tempo
      state.running = transport.running
      if transport.run != state.run {
        state.run = transport.run
        state.currentBeat = -1
        state.currentChord = 0
      }
    case .beat(let index):
      state.currentBeat = index
    case .chord(let index):
      guard state.progression.indices.contains(index) else { return .none }
      state.currentChord = index
      state.chordsPlayed += 1
    }
    if !state.progression.indices.contains(state.currentChord) { state.currentChord = 0 }
    return .none
  }

  /// What it publishes ("patchbay.shared/1"): the key and the chords, which the Studio shows.
  public struct Summary: Codable, Equatable, Sendable {
    public var key: String
    public var progression: String
  }

  public static func shared(_ state: State) -> [SharedValue] {
    [
      SharedValue(
        "practice",
        Summary(
          key: Chord.pitchNames[state.key] + " major",
          progression: state.progression.map(\.symbol).joined(separator: " ")))
    ]
  }

  public static func render(_ state: State) -> String {
    let key = Chord.pitchNames[state.key] + " major"
    let chords = state.progression.enumerated().map { index, chord in
      index == state.currentChord && state.currentBeat >= 0 ? "[\(chord)]" : " \(chord) "
    }.joined()
    let beat = state.currentBeat < 0 ? -1 : state.currentBeat % state.beatsPerChord
    let dots = (0..<state.beatsPerChord).map { $0 == beat ? "●" : "○" }.joined(separator: " ")
    let now = state.progression[state.currentChord]
    var lines = [
      "Practice — \(key), \(Int(state.tempo)) BPM, chords "
        + (state.isPlaying ? (state.running ? "playing" : "on (start the Metronome)") : "off"),
      "Progression \(chords)",
      "Now \(now.symbol.padding(toLength: 6, withPad: " ", startingAt: 0))"
        + "Next \(state.progression[state.nextChord].symbol.padding(toLength: 6, withPad: " ", startingAt: 0))"
        + "beat \(dots)",
      "",
    ]
    lines += Fretboard.render(now)
    if let problem = state.problem { lines += ["", "⚠ \(problem)"] }
    return lines.joined(separator: "\n")
  }

  // MARK: The realtime half

  /// What the sequencer reads each period: the transport, and up to 16 chords of 4 notes.
  public struct Parameters: BitwiseCopyable, Sendable {
    public var running: Bool
    public var playing: Bool
    public var run: Int
    public var tempo: Double
    public var beatsPerChord: Int
    public var chordCount: Int
    /// Chord c's notes at 4c…4c+3; 0 where it has fewer.
    public var notes: InlineArray<64, UInt8>
  }

  public static func parameters(for state: State) -> Parameters {
    var notes = InlineArray<64, UInt8>(repeating: 0)
    for (c, chord) in state.progression.prefix(16).enumerated() {
      for (n, note) in chord.notes.prefix(4).enumerated() { notes[4 * c + n] = UInt8(note) }
    }
    return Parameters(
      running: state.running, playing: state.isPlaying, run: state.run, tempo: state.tempo,
      beatsPerChord: state.beatsPerChord, chordCount: min(state.progression.count, 16),
      notes: notes)
  }

  public static var maxProcessorEvents: Int { 8 }
  /// Four notes off and four on at a chord change, twice over in a short period at most.
  public static var maxMIDIOutput: Int { 32 }
}

#plugin(
  id: "dev.patchbay.practice-room-plugin", name: "PracticeRoom", version: "1.0.0",
  features: [PracticeRoom.self])
