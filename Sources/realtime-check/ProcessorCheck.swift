import Foundation
import PatchbayAudioDevice
import PatchbayAudioGraph
import PatchbayConfig
import PatchbayEncoding
import PatchbayHost
import PatchbayMIDI
import RealtimeCheckSupport

/// The audio thread rendering the studio's processors — the Swift Metronome's, the Practice
/// screen's sequencer (Swift) sending chords to the C Synth, the C Drums', then two LV2
/// effects as features, their controls moved (the EQ's gain) — into ALSA's null
/// PCM, while this thread plays MIDI into the app (notes for the synth's processor and
/// reducer), changes parameters, and takes the beat and chord events back as actions: the
/// counter watches only the audio thread. Isolated, the plugins run in
/// processes of their own, and what is counted is the host's side of each period (the copy
/// in, the wake, the wait, the mix back).
enum ProcessorCheck {
  struct Result: CustomStringConvertible {
    var periods: Int
    var midiEvents: Int
    var beats: Int
    var parameterChanges: Int
    var isolated: Bool
    var chords = 0
    /// Samples the audio thread copied to DevTools' sound tap, read back here.
    var tapped = 0

    var description: String {
      "audio thread running the Metronome (Swift) and Synth (C) processors, with the Practice "
        + "sequencer (Swift) playing the Synth and the Drums (C), through the x42 EQ and "
        + "compressor (LV2 features)"
        + (self.isolated ? ", isolated (the host's side)" : "") + ", \(self.periods) "
        + "periods: \(self.midiEvents) MIDI events delivered, \(self.parameterChanges) parameter "
        + "changes read, \(self.beats) beat events back as actions, \(self.chords) chords sent, "
        + "\(self.tapped) samples copied to DevTools' sound tap with each processor's peak"
    }
  }

  /// The x42 EQ and compressor play the mix, as LV2 features (always in this process).
  static let eq = "http://gareus.org/oss/lv2/fil4#stereo"

  static func run(periods: Int, warmUp: Int, isolated: Bool = false) throws -> Result {
    // The plugins swift build put beside this executable.
    let folder = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
      .deletingLastPathComponent().path
    let config = try AppConfig(
      parsing: """
        [app]
        root = "metronome"
        [plugins]
        load = ["\(folder)/libMetronome.so", "\(folder)/libSynth.so", "\(folder)/libDrums.so",
                "\(folder)/libPracticeRoom.so"]
        isolate = [\(isolated ? "\"all\"" : "")]
        [[feature]]
        key = "metronome"
        id = "dev.patchbay.metronome"
        [[feature]]
        key = "synth"
        id = "dev.patchbay.synth"
        parent = "metronome"
        kind = "child"
        [[feature]]
        key = "drums"
        id = "dev.patchbay.drums"
        parent = "metronome"
        kind = "child"
        [[feature]]
        key = "practice"
        id = "dev.patchbay.practice-room"
        parent = "metronome"
        kind = "child"
        [[feature]]
        key = "eq"
        lv2 = "\(Self.eq)"
        parent = "metronome"
        [[feature]]
        key = "compressor"
        lv2 = "http://gareus.org/oss/lv2/darc#stereo"
        parent = "metronome"
        """, file: "realtime-check.toml")
    let app = try AppRuntime(
      config: config, registry: try config.loadPlugins(with: config.loader()))
    let format = AudioFormat(sampleRate: 48_000, channels: 2, periodFrames: 128)
    let graph = ProcessorGraph(format: format)
    try app.attach(graph)
    // A DevTools page watching: the mix copied to the tap, each processor's peak measured.
    graph.tap.isOn = true
    var tapped = [Float](repeating: 0, count: 65_536)
    // 400 BPM: a beat every 7,200 frames, so the check sees many.
    try app.send("metronome", "setTempo(bpm: 400.0)")
    // A chord every beat: note-offs and note-ons through the graph's MIDI between processors.
    try app.send("metronome/practice", "setBeatsPerChord(1)")
    try app.send("metronome/practice", "play")
    try app.send("metronome", "start")
    let output = try ALSAOutput(device: "null", format: format)
    let engine = AudioEngine(output: output, renderer: graph)
    engine.start(periods: warmUp + periods) { period in
      if period == warmUp - 1 { AllocationCounter.watch(currentThread: true) }
      if period == warmUp + periods - 1 { AllocationCounter.watch(currentThread: false) }
    }
    // This thread is the MIDI pump and the app's event timer.
    var result = Result(
      periods: periods, midiEvents: 0, beats: 0, parameterChanges: 0, isolated: isolated)
    var note: UInt8 = 36
    while engine.statistics.periods < warmUp + periods {
      app.receive(MIDIEvent(.noteOn, channel: 0, note, 100))
      app.receive(MIDIEvent(.noteOff, channel: 0, note, 0))
      result.midiEvents += 2
      note = note == 96 ? 36 : note + 1
      if result.midiEvents % 64 == 0 {
        try app.send("metronome/synth", "setVolume(level: \(Double(note) / 100))")
        try app.send("metronome/eq", "set(port: \"gain\", value: \(Double(note % 12) - 6))")
        result.parameterChanges += 2
        app.deliverProcessorEvents()
        result.tapped += graph.tap.read(into: &tapped)
        _ = app.perform { graph.processorPeaks() }
      }
      usleep(50)
    }
    engine.wait()
    output.close()
    app.deliverProcessorEvents()
    if case .int(let beats)? = try app.state("metronome")[field: "beatsPlayed"] {
      result.beats = Int(beats)
    }
    if case .int(let chords)? = try app.state("metronome/practice")[field: "chordsPlayed"] {
      result.chords = Int(chords)
    }
    return result
  }
}
