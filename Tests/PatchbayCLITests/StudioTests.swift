import Foundation
import Testing

/// `make studio` end to end: the practice studio rendered headless from its song and script,
/// replayed to the same state, and heard stem by stem (`--solo`): the clicks at the tempo,
/// the drums' hits at their steps, the song's notes at their frames.
@Suite struct StudioTests {
  static let root = CheckTests.root
  static let rate = 48_000

  /// Renders the studio script, hearing only `solo` when given, with a state folder of its
  /// own (kept state would change the run); the WAV's left channel and the state hash.
  static func render(solo: String? = nil) async throws -> (left: [Int16], hash: String) {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
    defer { try? FileManager.default.removeItem(at: folder) }
    let (out, record) = (
      folder.appendingPathComponent("studio.wav").path,
      folder.appendingPathComponent("studio.jsonl").path
    )
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let result = try await CLI.run(
      arguments: [
        "render", "\(Self.root)/host-config/studio.toml",
        "--midi", "smf:\(Self.root)/host-config/songs/studio.mid",
        "--script", "\(Self.root)/host-config/studio.script", "--record", record, "--out", out,
        "--plugin-path", CLI.directory,
      ] + (solo.map { ["--solo", $0] } ?? []),
      environment: ["XDG_STATE_HOME": folder.path])
    #expect(result.exitCode == 0, "\(result.stderr)")
    let hash = try #require(
      result.stdout.split(separator: "\n").last { $0.hasPrefix("state hash: ") }?.dropFirst(12))
    if solo == nil {
      let replay = try await CLI.run("replay", record, "--plugin-path", CLI.directory)
      #expect(replay.exitCode == 0, "\(replay.stderr)")
      #expect(replay.stdout.contains("state hash: \(hash)"))
    }
    let data = try Data(contentsOf: URL(fileURLWithPath: out))
    let samples = data.dropFirst(44).withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
    return (stride(from: 0, to: samples.count, by: 2).map { samples[$0] }, String(hash))
  }

  /// Frames where a sound starts after at least `quiet` frames of silence.
  static func onsets(_ samples: [Int16], quiet: Int = 400) -> [Int] {
    var (onsets, silent) = ([Int](), quiet)
    for (frame, sample) in samples.enumerated() {
      if sample != 0 {
        if silent >= quiet { onsets.append(frame) }
        silent = 0
      } else {
        silent += 1
      }
    }
    return onsets
  }

  static func rms(_ samples: ArraySlice<Int16>) -> Double {
    (samples.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(max(1, samples.count)))
      .squareRoot()
  }

  @Test func theStudioScriptPlaysReplaysAndSoundsAsWritten() async throws {
    let full = try await Self.render()
    let (clicks, drums, synth) = (
      try await Self.render(solo: "metronome"), try await Self.render(solo: "drums"),
      try await Self.render(solo: "synth")
    )
    // Hearing one part changes nothing the app does.
    #expect([clicks.hash, drums.hash, synth.hash] == [full.hash, full.hash, full.hash])
    #expect(full.left.count >= 24 * Self.rate)

    // The Metronome: a click every 24,000 frames (120 BPM) from the first frame to its stop
    // at 24 s (whole periods: beat 49, at frame 1,152,000, is in the last period before it).
    #expect(Self.onsets(clicks.left) == (0...48).map { $0 * 24_000 })

    // The Drums, in the Metronome's time through shared state: a 16th step is 6,000 frames;
    // the pattern hits every even step (kick 1, 9, 11; snare 5, 13; hat on the eighths) and
    // no odd one, until the script adds a snare on step 16 at 22.5 s.
    for step in 0..<180 {
      let frame = step * 6_000
      let after = Self.rms(drums.left[frame..<frame + 480])
      let before = step == 0 ? 0 : Self.rms(drums.left[frame - 480..<frame])
      #expect((after > 1.5 * before + 50) == step.isMultiple(of: 2), "step \(step)")
    }

    // The Synth: after the Practice screen closed at 8 s its chords ended (no note hangs),
    // so each of the song's notes from there on starts out of silence at its frame: six
    // notes while the MIDI Monitor is open, then the ten chords that answer the Trainer.
    let expected =
      (0..<6).map { 8 * Self.rate + $0 * Self.rate / 2 }
      + (0..<10).map { 12 * Self.rate + Self.rate / 2 + $0 * Self.rate }
    let heard = Self.onsets(synth.left).filter { $0 >= 8 * Self.rate + 4_800 }
    #expect(heard == Array(expected.dropFirst()), "onsets at \(heard)")
    // Before it, the melody and the chords (the song's first note and the first chord start
    // together on the first frame).
    #expect(Self.onsets(synth.left).first == 0)
  }
}

/// The studio keeps its practice: tempo, key, progression and the trainer's score survive a
/// quit and a `kill -9`.
@Suite struct StudioKeptStateTests {
  static func run(_ script: String, state folder: URL) async throws -> CLI.Result {
    let file = folder.appendingPathComponent("\(UUID().uuidString).script").path
    try script.write(toFile: file, atomically: true, encoding: .utf8)
    return try await CLI.run(
      arguments: [
        "run", "\(CheckTests.root)/host-config/studio.toml", "--script", file, "--audio", "none",
        "--plugin-path", CLI.directory,
      ], environment: ["XDG_STATE_HOME": folder.path])
  }

  /// Waits until the metronome's kept state file (`studio%2Fmetronome.state`, somewhere under
  /// `folder`) holds `tempo`, as a Float64 in either byte order. False after 300 s: the bound
  /// stops a hang only.
  static func waitUntilKept(tempo: Double, in folder: URL) async throws -> Bool {
    let bits = tempo.bitPattern
    let little = withUnsafeBytes(of: bits.littleEndian) { Data($0) }
    let big = withUnsafeBytes(of: bits.bigEndian) { Data($0) }
    let deadline = ContinuousClock.now + .seconds(300)
    while ContinuousClock.now < deadline {
      let files = FileManager.default.enumerator(atPath: folder.path)?.allObjects as? [String]
      for file in files ?? [] where file.hasSuffix("studio%2Fmetronome.state") {
        let bytes = (try? Data(contentsOf: folder.appendingPathComponent(file))) ?? Data()
        if bytes.range(of: little) != nil || bytes.range(of: big) != nil { return true }
      }
      try await Task.sleep(for: .milliseconds(20))
    }
    return false
  }

  @Test func practiceSurvivesAQuitAndAKill() async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let first = try await Self.run(
      """
      send studio/metronome setTempo(bpm: 92.0)
      send studio go(0)
      send practice setKey("D")
      send practice setProgression("Bm G D A")
      pop
      send studio go(1)
      send trainer key(0)
      send trainer key(4)
      send trainer key(7)
      """, state: folder)
    #expect(first.exitCode == 0, "\(first.stderr)")
    let second = try await Self.run(
      """
      expect studio/metronome /tempo 92.0
      expect studio /key "D major"
      expect studio /progression "Bm G D A"
      send studio go(0)
      expect practice /key 2
      pop
      send studio go(1)
      expect trainer /score 1
      """, state: folder)
    #expect(second.exitCode == 0, "\(second.stdout)\(second.stderr)")

    // A kill -9 after a change: the next run has it.
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "\(CLI.directory)/patchbay")
    let script = folder.appendingPathComponent("slow.script").path
    try "send studio/metronome setTempo(bpm: 133.0)\nwait 30000\n".write(
      toFile: script, atomically: true, encoding: .utf8)
    process.arguments = [
      "run", "\(CheckTests.root)/host-config/studio.toml", "--script", script, "--audio", "none",
      "--plugin-path", CLI.directory,
    ]
    process.environment = ProcessInfo.processInfo.environment.merging(
      ["XDG_STATE_HOME": folder.path]) { $1 }
    try process.run()
    // Killed once the new tempo is on disk (the keeper writes off the app queue, when it
    // can): a fixed sleep raced a loaded machine's start.
    let kept = try await Self.waitUntilKept(tempo: 133.0, in: folder)
    kill(process.processIdentifier, SIGKILL)
    #expect(kept, "the metronome's state file never held the tempo 133.0")
    process.waitUntilExit()
    let third = try await Self.run("expect studio/metronome /tempo 133.0\n", state: folder)
    #expect(third.exitCode == 0, "\(third.stdout)\(third.stderr)")
  }
}

@Suite struct RenderSoloTests {
  @Test func soloingANodeTheAppDoesNotHaveIsALine() async throws {
    let result = try await CLI.run(
      arguments: [
        "render", "\(CheckTests.root)/host-config/studio.toml", "--solo", "cowbell", "--out",
        "/tmp/never.wav", "--plugin-path", CLI.directory,
      ], environment: ["XDG_STATE_HOME": FileManager.default.temporaryDirectory.path + "/none"])
    #expect(result.exitCode == 1)
    #expect(
      result.stderr.contains(
        "--solo cowbell: no such node in \(CheckTests.root)/host-config/studio.toml. Nodes: studio, "
          + "metronome, synth, drums, compressor, practice, trainer, trainer-results, monitor."),
      "\(result.stderr)")
  }
}
