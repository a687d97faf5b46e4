import Foundation
import PatchbayAudioDevice
import PatchbayAudioGraph
import PatchbayConfig
import PatchbayEncoding
import PatchbayHost
import PatchbayMIDI
import Testing

/// The live path on the paced null device: MIDI through a FIFO, and swaps while playing.
@Suite(.serialized) struct LiveSessionTests {
  static func settings(midi: MIDIInputSpec = .none) -> SoundSettings {
    var settings = SoundSettings()
    settings.device = "null"
    settings.midi = midi
    return settings
  }

  /// 10,000 MIDI messages written to a FIFO reach the Synth's reducer, in order, none lost:
  /// 5,000 notes, each on then off (an off before its on would leave the note held). The
  /// writer sends 100 at a time and waits until the reducer has them before it sends more, as
  /// a player does who waits for the app: a FIFO is live, so an app that falls behind by more
  /// than the reader's ring drops events (MIDIInputTests.aLiveSourceTheAppDoesNotDrain…), and
  /// a loaded machine must not make this test one of that.
  @Test func midiThroughAFIFOReachesTheReducerInOrder() async throws {
    let fifo = temporaryFile("midi.fifo")
    #expect(mkfifo(fifo, 0o600) == 0)
    defer { unlink(fifo) }
    let app = try makeApp("trio")
    let synth = try app.instance("metronome/synth")
    let before = synth.reducedCount
    // Opening a FIFO for reading waits for a writer: the writer opens it first, on its own.
    let writer = Task.detached {
      let handle = FileHandle(forWritingAtPath: fifo)!
      for chunk in 0..<100 {
        var bytes: [UInt8] = []
        for index in chunk * 50..<(chunk + 1) * 50 {
          let note = UInt8(index % 128)
          bytes += [0x90 | UInt8(index % 16), note, 100, 0x80 | UInt8(index % 16), note, 0]
        }
        handle.write(Data(bytes))
        let sent = UInt64((chunk + 1) * 100)
        let deadline = ContinuousClock.now.advanced(by: .seconds(300))  // a bound on a hang only
        while synth.reducedCount - before < sent, ContinuousClock.now < deadline {
          try? await Task.sleep(for: .milliseconds(1))
        }
      }
      try? handle.close()
    }
    let live = try LiveSession(app: app, settings: Self.settings(midi: .file(fifo)))
    live.start()
    _ = await writer.value
    #expect(live.waitForMIDI(timeout: .seconds(300)))
    #expect(await app.settle(timeout: .seconds(300)))
    live.stop()
    #expect(live.midiEvents == 10_000)
    #expect(synth.reducedCount - before == 10_000)
    #expect(try app.state("metronome/synth")[field: "notesPlayed"] == 5_000)
    #expect(try app.state("metronome/synth")[field: "held"] == .list([]))
    #expect(synth.failures.isEmpty)
  }

  /// The Synth swapped for a rebuilt copy of itself 100 times while it plays a held note:
  /// every period renders it (the old processor plays period n, the new one n + 1), its state
  /// (volume, waveform, the held note) carries over, and nothing fails.
  @Test func swappingWhilePlayingSkipsNoPeriod() async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let copy = folder.appendingPathComponent("libSynth.so").path
    try BuiltPlugins.copy("Synth", to: copy)

    let app = try makeApp("trio")
    try app.send("metronome", "stop")  // only the synth plays
    let live = try LiveSession(app: app, settings: Self.settings())
    // The metronome has a processor too; the synth's is the second.
    try app.send("metronome/synth", "setVolume(level: 0.3)")
    try app.send("metronome/synth", #"setWaveform(name: "saw")"#)
    try app.send("metronome/synth", "midi(noteOn(channel: 1, note: 57, velocity: 90))")
    live.start()
    var reports: [SwapReport] = []
    for index in 0..<100 {
      try FileManager.default.setAttributes(
        [.modificationDate: Date(timeIntervalSince1970: 1_700_000_000 + Double(index))],
        ofItemAtPath: copy)
      reports.append(try app.swap("synth", to: copy))
      try await Task.sleep(for: .milliseconds(3))
    }
    // Rendering goes on after the last swap: wait for periods to pass rather than for time
    // (a loaded machine can hold the audio thread off for milliseconds at a time).
    let graph = live.graph
    let afterSwaps = graph.periodsRendered
    let deadline = ContinuousClock.now + .seconds(300)
    while graph.periodsRendered < max(afterSwaps + 10, 101), ContinuousClock.now < deadline {
      try await Task.sleep(for: .milliseconds(5))
    }
    live.stop()
    #expect(graph.periodsRendered > 100)
    // Two processors (metronome and synth) in every period, swap or not.
    #expect(graph.processorCalls == 2 * graph.periodsRendered)
    #expect(reports.count == 100)
    #expect(Set(reports.map(\.generation)).count == 100)
    let state = try app.state("metronome/synth")
    #expect(state[field: "volume"] == 0.3)
    #expect(state[field: "waveform"] == "saw")
    #expect(state[field: "held"] == .list([57]))
    #expect(try app.instance("metronome/synth").failures.isEmpty)
  }
}
