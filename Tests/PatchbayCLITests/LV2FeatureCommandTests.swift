import Foundation
import Testing

/// An installed LV2 plugin as a feature, from the command line: validated, run from a
/// script, recorded and replayed, swapped, and refused in one line when it cannot be hosted.
@Suite struct LV2FeatureCommandTests {
  static let eq = "http://gareus.org/oss/lv2/fil4#stereo"

  /// A config of the Synth with `uri` under it, in a file of its own.
  static func config(_ uri: String, extra: String = "") throws -> String {
    let file = FileManager.default.temporaryDirectory
      .appendingPathComponent("\(UUID().uuidString)-lv2.toml").path
    try """
    [app]
    root = "synth"
    [plugins]
    search-paths = ["\(CheckTests.root)/.build/debug"]
    load = ["Synth"]
    [[feature]]
    key = "synth"
    id = "dev.patchbay.synth"
    [[feature]]
    key = "eq"
    lv2 = "\(uri)"
    parent = "synth"
    \(extra)
    """.write(toFile: file, atomically: true, encoding: .utf8)
    return file
  }

  @Test func validateRunsEveryTestOnAnLV2Feature() async throws {
    let result = try await CLI.run("validate", "lv2:\(Self.eq)", "--seed", "7")
    #expect(result.exitCode == 0, "\(result.stdout)\(result.stderr)")
    #expect(result.stdout.contains("PASS  processor.realtime"))
    #expect(result.stdout.contains("PASS  processor.periods"))
    #expect(result.stdout.contains("PASS  state.corrupt"))
    #expect(result.stdout.contains(": 18 passed, 0 failed"))
  }

  @Test func inspectNamesTheLibraryAndTheActions() async throws {
    let result = try await CLI.run("inspect", "lv2:\(Self.eq)")
    #expect(result.exitCode == 0, "\(result.stderr)")
    #expect(result.stdout.contains("  LV2:  /usr/lib/lv2/fil4.lv2/fil4.so"))
    #expect(result.stdout.contains("set(port: string, value: double)"))
    #expect(result.stdout.contains("preset(name: string)"))
  }

  @Test func aRunSetsSwapsRecordsAndReplaysTheControls() async throws {
    let config = try Self.config(Self.eq)
    let recording = FileManager.default.temporaryDirectory
      .appendingPathComponent("\(UUID().uuidString)-lv2.jsonl").path
    let script = recording + ".script"
    try """
    send synth/eq set(port: "gain", value: -6)
    send synth/eq set(port: "LPfreq", value: 100000)
    swap eq lv2:\(Self.eq)
    state synth/eq
    """.write(toFile: script, atomically: true, encoding: .utf8)
    let run = try await CLI.run(
      "run", config, "--audio", "null", "--record", recording, "--script", script)
    #expect(run.exitCode == 0, "\(run.stderr)")
    #expect(run.stdout.contains(#""gain": -6.0"#), "\(run.stdout)")
    #expect(
      run.stdout.contains(#""LPfreq": 20000.0"#), "clamped to the port's range: \(run.stdout)")
    let hash = try #require(run.stdout.split(separator: "\n").last)
    #expect(hash.hasPrefix("state hash: "))
    let replay = try await CLI.run("replay", recording)
    #expect(replay.exitCode == 0, "\(replay.stderr)")
    #expect(replay.stdout == "\(hash)\n")
  }

  @Test func aPluginThatDoesNotSayItIsRealtimeIsRefusedUnlessAllowed() async throws {
    let environment = ["LV2_PATH": LV2CommandTests.path]
    let refused = try await CLI.run(
      "run", try Self.config("urn:patchbay:test:not-realtime"), "--audio", "null",
      environment: environment)
    #expect(refused.exitCode != 0)
    #expect(refused.stderr.contains("-lv2.toml:"))
    #expect(refused.stderr.contains("does not say it is hard-realtime capable"))
    #expect(refused.stderr.contains("lv2-realtime = false"))
    // Allowed, it gets as far as its library, which is not one (a fixture).
    let allowed = try await CLI.run(
      "run", try Self.config("urn:patchbay:test:not-realtime", extra: "lv2-realtime = false"),
      "--audio", "null", environment: environment)
    #expect(allowed.exitCode != 0)
    #expect(!allowed.stderr.contains("hard-realtime"))
    #expect(allowed.stderr.contains("does not load"), "\(allowed.stderr)")
  }

  /// The studio puts the x42 compressor on its mix; without x42-plugins (an `LV2_PATH` with
  /// nothing in it) it says so in one line and runs as before. With them, the compressor's
  /// controls are its state.
  @Test func theStudioPlaysWithOrWithoutItsCompressor() async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let script = folder.appendingPathComponent("studio.script").path
    try "send studio/metronome start\nstate studio/compressor\n".write(
      toFile: script, atomically: true, encoding: .utf8)
    let arguments = [
      "run", "\(CheckTests.root)/host-config/studio.toml", "--script", script, "--audio", "none",
      "--plugin-path", CLI.directory,
    ]
    let without = try await CLI.run(
      arguments: arguments,
      environment: ["XDG_STATE_HOME": folder.path, "LV2_PATH": folder.path])
    #expect(without.exitCode == 0, "\(without.stderr)")
    #expect(
      without.stderr.contains(
        "studio.toml:66: feature \"compressor\" plays without it: no LV2 plugin "
          + "<http://gareus.org/oss/lv2/darc#stereo> is installed"), "\(without.stderr)")
    #expect(without.stdout.contains("{}"))
    let with = try await CLI.run(arguments: arguments, environment: ["XDG_STATE_HOME": folder.path])
    #expect(with.exitCode == 0, "\(with.stderr)")
    #expect(!with.stderr.contains("plays without it"))
    #expect(with.stdout.contains(#""threshold": -30.0"#), "\(with.stdout)")
  }
}
