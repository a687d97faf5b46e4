import Foundation
import PatchbayAudioDevice
import PatchbayAudioGraph
import PatchbayConfig
import PatchbayHost
import Testing

/// A processor plays another (patchbay/process.h, `midi_out`): the Practice screen's
/// sequencer sends chords to the C Synth, sample-accurate, in time with the Metronome.
@Suite struct SequencerTests {
  static func app() throws -> AppRuntime {
    try makeApp(
      toml: """
        [app]
        name = "Chords"
        root = "metronome"
        [plugins]
        load = ["Metronome", "Synth", "PracticeRoom"]
        [[feature]]
        key = "metronome"
        id = "dev.patchbay.metronome"
        [[feature]]
        key = "synth"
        id = "dev.patchbay.synth"
        parent = "metronome"
        kind = "child"
        [[feature]]
        key = "practice"
        id = "dev.patchbay.practice-room"
        parent = "metronome"
        kind = "child"
        """, file: "chords.toml")
  }

  /// The left channel of `seconds` of the app with the Metronome started, chords on or off.
  static func render(chords: Bool, seconds: Int = 5) throws -> (samples: [Double], app: AppRuntime)
  {
    let app = try Self.app()
    if chords { try app.send("metronome/practice", "play") }
    try app.send("metronome/practice", "setBeatsPerChord(2)")
    try app.send("metronome", "start")
    let render = try OfflineRender(app: app, format: OfflineRenderTests.format)
    let file = temporaryFile("chords.wav")
    defer { try? FileManager.default.removeItem(atPath: file) }
    let wav = try WAVFileOutput(path: file, format: render.format)
    render.run(frames: 48_000 * seconds, into: wav)
    wav.close()
    let data = try Data(contentsOf: URL(fileURLWithPath: file))
    let samples = data.dropFirst(44).withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
    return (stride(from: 0, to: samples.count, by: 2).map { Double(samples[$0]) }, app)
  }

  /// How strongly `samples` hold `frequency` (one DFT bin, normalized).
  static func strength(_ samples: ArraySlice<Double>, _ frequency: Double) -> Double {
    var (re, im) = (0.0, 0.0)
    for (index, sample) in zip(samples.indices, samples) {
      let phase = 2 * Double.pi * frequency * Double(index) / 48_000
      re += sample * cos(phase)
      im += sample * sin(phase)
    }
    return (re * re + im * im).squareRoot() / Double(samples.count)
  }

  @Test func theChordsStartOnTheBeatAndChangeEveryTwoBeats() throws {
    let (with, app) = try Self.render(chords: true)
    let (without, _) = try Self.render(chords: false)
    // What the sequencer added: the Synth's sound alone (the clicks are in both).
    let chords = zip(with, without).map { $0 - $1 }
    #expect(chords.firstIndex { $0 != 0 } == 0, "the first chord sounds from the first frame")
    // C major (C4 E4 G4) for beats 1–2, G major (G3 B3 D4) for beats 3–4: C4 is in the first
    // and not in the second, B3 the other way round.
    let (c4, b3) = (261.63, 246.94)
    let first = chords[12_000..<36_000]
    let second = chords[60_000..<84_000]
    #expect(Self.strength(first, c4) > 10 * Self.strength(second, c4))
    #expect(Self.strength(second, b3) > 10 * Self.strength(first, b3))
    // The screen heard every beat and chord change: 10 beats in 5 s, a chord every 2.
    #expect(try app.state("metronome/practice")[field: "currentBeat"] == 9)
    #expect(try app.state("metronome/practice")[field: "chordsPlayed"] == 5)
    #expect(try app.state("metronome/practice")[field: "currentChord"] == 0)
  }
}
