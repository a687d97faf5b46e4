import Foundation
import Testing

@Suite struct ReplayTests {
  static let demo = "\(CheckTests.root)/host-config/counter-echo.script"

  func temporary(_ name: String) -> String {
    FileManager.default.temporaryDirectory.appendingPathComponent("\(UUID().uuidString)-\(name)")
      .path
  }

  @Test func replayReproducesTheRecordedStateHash() async throws {
    let recording = self.temporary("run.jsonl")
    let run = try await CLI.run(
      "run", RunTests.config, "--script", Self.demo, "--record", recording)
    #expect(run.exitCode == 0)
    let hash = try #require(run.stdout.split(separator: "\n").last)
    #expect(hash.hasPrefix("state hash: "))

    let lines = try String(contentsOfFile: recording, encoding: .utf8).split(separator: "\n")
    #expect(lines.first?.contains(#""format":"patchbay-record/1""#) == true)
    #expect(
      lines.contains { $0.contains(#""source":"effect""#) && $0.contains("delayedIncrement") })
    #expect(lines.contains { $0.contains(#""navigation":"push""#) })

    let replay = try await CLI.run("replay", recording)
    #expect(replay.exitCode == 0)
    #expect(replay.stdout == "\(hash)\n")
  }

  @Test func divergedReplayExits1() async throws {
    let recording = self.temporary("run.jsonl")
    _ = try await CLI.run("run", RunTests.config, "--script", Self.demo, "--record", recording)
    var text = try String(contentsOfFile: recording, encoding: .utf8)
    text = text.replacingOccurrences(of: "setStep(by: 5)", with: "setStep(by: 6)")
    try text.write(toFile: recording, atomically: true, encoding: .utf8)
    let replay = try await CLI.run("replay", recording)
    #expect(replay.exitCode == 1)
    #expect(replay.stderr.contains("replay diverged: the recording ended with state hash"))
  }

  @Test func corruptRecordingNamesTheLine() async throws {
    let recording = self.temporary("bad.jsonl")
    try """
    {"format":"patchbay-record/1","config":"\(RunTests.config)"}
    {"seq":1,"source":"command","path":"counter","action":"increment"}
    not json
    """.write(toFile: recording, atomically: true, encoding: .utf8)
    let replay = try await CLI.run("replay", recording)
    #expect(replay.exitCode == 1)
    #expect(
      replay.stderr.contains(
        "\(recording):3: not a recording line (expected one JSON object per line)."))
    try "{\"hello\":1}\n".write(toFile: recording, atomically: true, encoding: .utf8)
    let notRecording = try await CLI.run("replay", recording)
    #expect(notRecording.stderr.contains("\(recording):1: not a patchbay recording"))
  }

  /// The recording format stays: a recording made on 2026-11-23 (actions, an effect's action,
  /// navigation, a swap), its config path relative to the file, still replays to its hash.
  @Test func aRecordingFromAnEarlierVersionStillReplays() async throws {
    let fixture = "\(CheckTests.root)/Tests/PatchbayCLITests/Fixtures/counter-echo-2026-11.jsonl"
    let result = try await CLI.run("replay", fixture, "--plugin-path", CLI.directory)
    #expect(result.exitCode == 0, "\(result.stderr)")
    #expect(result.stdout.contains("state hash: be697d9c18491519"))
  }
}
