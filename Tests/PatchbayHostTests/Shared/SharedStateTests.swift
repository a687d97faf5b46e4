import Foundation
import PatchbayAudioDevice
import PatchbayAudioGraph
import PatchbayConfig
import PatchbayEncoding
import PatchbayHost
import Synchronization
import Testing

/// "patchbay.shared/1": the Drums (C) read the Metronome's (Swift) transport without importing
/// it — as actions, after the action that changed it, and in their processor's period.
@Suite struct SharedStateTests {
  @Test func aReaderGetsTheValueWhenCreatedAndEachChangeAfterThePublishingAction() throws {
    let app = try makeApp("rhythm")
    // Created after the Metronome published: the current value came at once.
    #expect(try app.state("metronome/drums")[field: "tempo"] == .double(120))
    let sources = Mutex<[String]>([])
    app.onChange { change in
      if case .action(let path, let text, let source, _) = change {
        sources.withLock { $0.append("\(source.rawValue) \(path) \(text)") }
      }
    }
    try app.send("metronome", "setTempo(bpm: 90.0)")
    #expect(try app.state("metronome/drums")[field: "tempo"] == .double(90))
    try app.send("metronome", "setAccent(false)")  // the transport did not change: no one told
    try app.send("metronome", "start")
    #expect(try app.state("metronome/drums")[field: "running"] == .bool(true))
    #expect(try app.state("metronome/drums")[field: "run"] == .int(1))
    let seen = sources.withLock { $0 }
    #expect(
      seen == [
        "command metronome setTempo(bpm: 90.0)",
        "shared metronome/drums transport({tempo: 90.0, running: false, run: 0, beatsPerBar: 4})",
        "command metronome setAccent(false)",
        "command metronome start",
        "shared metronome/drums transport({tempo: 90.0, running: true, run: 1, beatsPerBar: 4})",
      ])
    #expect(app.sharedState()["transport"]?.owner == "metronome")
  }

  @Test func aNameHasOnePublisher() throws {
    let app = try makeApp(
      toml: """
        [app]
        name = "Two clocks"
        root = "metronome"
        [plugins]
        load = ["Metronome"]
        [[feature]]
        key = "metronome"
        id = "dev.patchbay.metronome"
        [[feature]]
        key = "second"
        id = "dev.patchbay.metronome"
        parent = "metronome"
        kind = "stack"
        """, file: "two-clocks.toml")
    #expect {
      try app.navigate(.push(node: "second"))
    } throws: { error in
      "\(error)".contains(
        "patchbay.shared/1: 'transport' is published by metronome; a name has one publisher")
    }
    // The first publisher's value stands, and the app runs on.
    try app.send("metronome", "setTempo(bpm: 100.0)")
    #expect(app.sharedState()["transport"]?.value.contains("tempo: 100.0") == true)
  }

  /// Offline, exact: the Drums' hats fall halfway between the Metronome's clicks, before a
  /// tempo change and after it, from the period the change was made in.
  @Test func theDrumsFollowATempoChangeWithinOnePeriod() throws {
    let app = try makeApp("rhythm")
    for voice in ["kick", "snare"] {
      try app.send(
        "metronome/drums", "setPattern(voice: \"\(voice)\", steps: \"................\")")
    }
    try app.send("metronome/drums", #"setPattern(voice: "hat", steps: "..x...x...x...x.")"#)
    let render = try OfflineRender(app: app, format: OfflineRenderTests.format)
    let file = temporaryFile("rhythm.wav")
    defer { try? FileManager.default.removeItem(atPath: file) }
    let wav = try WAVFileOutput(path: file, format: render.format)
    try app.send("metronome", "start")
    render.run(frames: 128 * 750, into: wav)  // 2 s at 120 BPM
    let change = Int(render.position)
    try app.send("metronome", "setTempo(bpm: 240.0)")
    render.run(frames: 128 * 750, into: wav)  // 2 s at 240 BPM
    wav.close()
    let data = try Data(contentsOf: URL(fileURLWithPath: file))
    let samples = data.dropFirst(44).withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
    let left = stride(from: 0, to: samples.count, by: 2).map { Int(samples[$0]) }
    var onsets: [Int] = []
    var quiet = 400
    for (frame, sample) in left.enumerated() {
      if sample != 0 {
        if quiet >= 400 { onsets.append(frame) }
        quiet = 0
      } else {
        quiet += 1
      }
    }
    // Click, hat, click, hat…: each hat halfway between the clicks around it.
    #expect(onsets.count >= 20)
    for index in stride(from: 1, to: onsets.count - 1, by: 2) {
      let (click, hat, next) = (onsets[index - 1], onsets[index], onsets[index + 1])
      #expect(abs((hat - click) - (next - hat)) <= 1, "hat at \(hat) between \(click) and \(next)")
    }
    // A beat lasts 24,000 frames before the change and 12,000 from the first beat after it.
    let before = onsets.filter { $0 < change }
    let after = onsets.filter { $0 > change + 24_000 }
    #expect(before.count >= 4 && after.count >= 4)
    for (a, b) in zip(before, before.dropFirst()) { #expect(abs(b - a - 12_000) <= 1) }
    for (a, b) in zip(after, after.dropFirst()) { #expect(abs(b - a - 6_000) <= 1) }
  }
}
