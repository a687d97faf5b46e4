import Foundation
import PatchbayPlot
import Testing

/// `patchbay render`, and `patchbay run` with sound, from the command line.
@Suite struct SoundCommandTests {
  static let studio = "\(CheckTests.root)/host-config/trio.toml"
  static let song = "\(CheckTests.root)/host-config/songs/demo.mid"
  static let script = "\(CheckTests.root)/host-config/songs/demo.script"

  func temporary(_ name: String) -> String {
    FileManager.default.temporaryDirectory.appendingPathComponent("\(UUID().uuidString)-\(name)")
      .path
  }

  /// The bundled song through the Synth and the Metronome: a WAV, the same bytes twice.
  @Test func theDemoSongRendersTheSameTwice() async throws {
    var files: [Data] = []
    for _ in 0..<2 {
      let out = self.temporary("demo.wav")
      defer { unlink(out) }
      let result = try await CLI.run(
        "render", Self.studio, "--midi", "smf:\(Self.song)", "--script", Self.script, "--out", out,
        "--plugin-path", CLI.directory)
      #expect(result.exitCode == 0, "\(result.stderr)")
      #expect(result.stdout.contains("68 MIDI events"))
      #expect(result.stdout.contains("× real time"))
      files.append(try Data(contentsOf: URL(fileURLWithPath: out)))
    }
    #expect(files[0].count > 44 + 17 * 48_000 * 4)
    let same = files[0] == files[1]  // not #expect's ==: it would diff them byte by byte
    #expect(same, "two renders differ (\(files[0].count) and \(files[1].count) bytes)")
    // Not silence: the synth and the clicks are in it.
    let samples = files[0].dropFirst(44).withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
    #expect(samples.contains { abs(Int($0)) > 5_000 })
  }

  /// `--plot`: the render drawn into a PNG that decodes, at its size, with sound on it; a plot
  /// that cannot be written is named, and the WAV is still there.
  @Test func aRenderIsPlottedIntoAPNG() async throws {
    let (out, plot) = (self.temporary("plot.wav"), self.temporary("plot.png"))
    defer { unlink(out); unlink(plot) }
    let result = try await CLI.run(
      "render", Self.studio, "--midi", "smf:\(Self.song)", "--script", Self.script, "--out", out,
      "--seconds", "4", "--plot", plot, "--plugin-path", CLI.directory)
    #expect(result.exitCode == 0, "\(result.stderr)")
    #expect(result.stdout.contains("\(plot): waveform, level and spectrum, 1200×900\n"))
    let image = try PNGFile.read(plot)
    #expect(image.width == 1200 && image.height == 900)
    var drawn = 0
    for y in stride(from: 0, to: 900, by: 3) {
      for x in stride(from: 0, to: 1200, by: 3) where image[x, y] == .wave { drawn += 1 }
    }
    #expect(drawn > 5_000, "only \(drawn) sampled pixels show the sound")

    let nowhere = try await CLI.run(
      "render", Self.studio, "--out", out, "--seconds", "0.1", "--plot", "/nowhere/plot.png",
      "--plugin-path", CLI.directory)
    #expect(nowhere.exitCode == 1)
    #expect(
      nowhere.stderr.contains(
        "--plot: /nowhere/plot.png: cannot write the PNG. Check the folder exists and is writable."),
      "\(nowhere.stderr)")
    #expect(FileManager.default.fileExists(atPath: out))
  }

  @Test func badSoundArgumentsAreUsageErrors() async throws {
    let out = self.temporary("x.wav")
    let live = try await CLI.run("render", Self.studio, "--midi", "fifo:/tmp/x", "--out", out)
    #expect(live.exitCode == 2)
    #expect(live.stderr.contains("give smf:PATH"))
    let rate = try await CLI.run("render", Self.studio, "--rate", "7", "--out", out)
    #expect(rate.exitCode == 2)
    #expect(rate.stderr.contains("--rate 7 is out of range: use 8000 to 384000."))
    let missing = try await CLI.run(
      "render", Self.studio, "--midi", "smf:/nowhere/song.mid", "--out", out, "--plugin-path",
      CLI.directory)
    #expect(missing.exitCode == 1)
    #expect(missing.stderr.contains("/nowhere/song.mid"))
    let input = try await CLI.run("run", Self.studio, "--midi", "usb")
    #expect(input.exitCode == 2)
    #expect(input.stderr.contains("'usb' is not a MIDI input"))
  }

  @Test func aMissingAudioDeviceIsNamed() async throws {
    let result = try await CLI.run(
      "run", Self.studio, "--audio", "hw:9", "--script", "/dev/null", "--plugin-path",
      CLI.directory)
    #expect(result.exitCode == 1)
    #expect(result.stderr.contains("hw:9"))
    #expect(result.stderr.split(separator: "\n").count == 1)
  }

  /// A script with the metronome playing on the paced null device: beats reach the reducer.
  @Test func aScriptHearsTheMetronomeLive() async throws {
    let script = self.temporary("live.script")
    defer { unlink(script) }
    try "send metronome start\nwait 1100\nstate metronome\n".write(
      toFile: script, atomically: true, encoding: .utf8)
    let result = try await CLI.run(
      "run", Self.studio, "--audio", "null", "--script", script, "--plugin-path", CLI.directory)
    #expect(result.exitCode == 0, "\(result.stderr)")
    // Beats at 0, 0.5 and 1.0 s (a loaded machine may be a period or two late to report).
    let played = result.stdout.split(separator: "\n").first { $0.contains("\"beatsPlayed\"") }
    #expect(played.map { $0.contains(": 2") || $0.contains(": 3") } == true, "\(result.stdout)")
  }

  /// A run driven by MIDI is recorded with its MIDI (as `midi` action lines) and replays to
  /// the same state hash.
  @Test func aMIDIDrivenRunReplaysToItsHash() async throws {
    let notes = self.temporary("notes.raw")
    let script = self.temporary("midi.script")
    let recording = self.temporary("midi.jsonl")
    defer { for file in [notes, script, recording] { unlink(file) } }
    var bytes: [UInt8] = []
    for index in 0..<20 {
      let note = UInt8(50 + index)
      bytes += [0x90, note, 100, 0x80, note, 0]
    }
    bytes += [0x90, 72, 80]  // still held at the end
    try #require(FileManager.default.createFile(atPath: notes, contents: Data(bytes)))
    try "settle\nstate metronome/synth\n".write(
      toFile: script, atomically: true, encoding: .utf8)
    let run = try await CLI.run(
      "run", Self.studio, "--audio", "none", "--midi", "file:\(notes)", "--record", recording,
      "--script", script, "--plugin-path", CLI.directory)
    #expect(run.exitCode == 0, "\(run.stderr)")
    #expect(run.stdout.contains("\"notesPlayed\": 21"))
    let hash = run.stdout.split(separator: "\n").first { $0.hasPrefix("state hash: ") }
    #expect(hash != nil)
    let lines = try String(contentsOfFile: recording, encoding: .utf8)
    // 41 messages, each to both listeners: the synth, and the metronome (for start and stop).
    #expect(lines.components(separatedBy: "\"source\":\"midi\"").count - 1 == 82)
    let replay = try await CLI.run("replay", recording, "--plugin-path", CLI.directory)
    #expect(replay.exitCode == 0, "\(replay.stderr)")
    #expect(replay.stdout.split(separator: "\n").contains { $0 == hash })
  }

  @Test func inspectShowsAProcessor() async throws {
    let metronome = try await CLI.run("inspect", "Metronome", "--plugin-path", CLI.directory)
    #expect(metronome.stdout.contains("processor: 33-byte parameters, up to 4 event(s) a period"))
    let echo = try await CLI.run("inspect", "Echo", "--plugin-path", CLI.directory)
    #expect(echo.exitCode == 0)
    #expect(!echo.stdout.contains("processor:"))
  }
}
