import Foundation
import Testing

/// A plugin call that never returns is reported within its limit, never a silent hang: on the
/// app queue (`[limits] call-seconds`) and on the audio thread (`[limits] audio-periods`).
@Suite struct WatchdogTests {
  static func run(_ script: String, limits: String, audio: Bool = false) async throws
    -> CLI.Result
  {
    let (config, folder) = try ProcessorSafetyTests.app(limits)
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("watch.script").path
    try script.write(toFile: file, atomically: true, encoding: .utf8)
    return try await CLI.run(
      arguments: ["run", config, "--script", file] + (audio ? ["--audio", "null"] : []))
  }

  @Test func aReduceThatNeverReturnsIsReportedAfterCallSeconds() async throws {
    let result = try await Self.run(
      "send second steady\nsend first hang\nstate first\n", limits: "[limits]\ncall-seconds = 1")
    #expect(result.exitCode == 3, "\(result.stderr)")
    #expect(
      result.stderr.contains(
        "patchbay: a plugin call did not return within 1 s: in its reduce: feature "
          + "dev.patchbay.fixture-hostile ("), "\(result.stderr)")
    #expect(result.stderr.contains("instance first, action hang."), "\(result.stderr)")
    #expect(result.stderr.contains("raise [limits] call-seconds if it is only slow"))
  }

  @Test func aProcessorThatNeverReturnsIsReportedAfterAudioPeriods() async throws {
    let result = try await Self.run(
      // The wait is far longer than the limit: a machine that stalls the watchdog for a while
      // still reports the hang before the script could print the state.
      "send first spin\nwait 120000\nstate first\n", limits: "[limits]\naudio-periods = 20",
      audio: true)
    #expect(result.exitCode == 3, "\(result.stderr)")
    #expect(
      result.stderr.contains(
        "patchbay: a plugin call did not return within 20 periods (0.053 s): in its process: "
          + "feature "
          + "dev.patchbay.fixture-hostile ("), "\(result.stderr)")
    #expect(result.stderr.contains("instance first."))
    // The script did not get to print the state: the app stopped at the hang.
    #expect(!result.stdout.contains("\"spin\""))
  }

  /// A hang leaves the flight recorder's file: the report names it, its last action is the
  /// one that hung, and `replay` reads it.
  @Test func aHangLeavesItsLastActionsNamedInTheReport() async throws {
    let (config, folder) = try ProcessorSafetyTests.app("[limits]\ncall-seconds = 1")
    defer { try? FileManager.default.removeItem(at: folder) }
    let flights = folder.appendingPathComponent("flights").path
    let script = folder.appendingPathComponent("hang.script").path
    try "send second steady\nsend first quiet\nsend first hang\n".write(
      toFile: script, atomically: true, encoding: .utf8)
    let result = try await CLI.run(
      arguments: ["run", config, "--script", script], environment: ["PATCHBAY_FLIGHT_DIR": flights])
    #expect(result.exitCode == 3, "\(result.stderr)")
    let report = try #require(
      result.stderr.split(separator: "\n").first { $0.hasPrefix("patchbay: a plugin call") })
    let named = try #require(report.firstRange(of: "Its last actions: ")).upperBound
    let file = String(report[named...].prefix { $0 != " " })
    #expect(file.hasPrefix(flights + "/"), "\(report)")
    #expect(report.hasSuffix(" (patchbay repro \(file))."), "\(report)")
    let replay = try await CLI.run(
      arguments: ["replay", file, "--plugin-path", CLI.directory],
      environment: ["PATCHBAY_FLIGHT_DIR": flights])
    // The hang is its last step: replayed, it hangs again, and the watchdog says so.
    #expect(replay.exitCode == 3, "\(replay.stdout)\(replay.stderr)")
    #expect(
      replay.stderr.contains(
        "did not return within 1 s: in its reduce: feature dev.patchbay.fixture-hostile"),
      "\(replay.stderr)")
  }

  /// Offline a period has no deadline (a busy machine takes its time over one): `render`
  /// reports a processor that never returns after `call-seconds`, not after `audio-periods`.
  @Test func aRenderWaitsCallSecondsForAProcessor() async throws {
    let (config, folder) = try ProcessorSafetyTests.app(
      "[limits]\ncall-seconds = 1\naudio-periods = 1")
    defer { try? FileManager.default.removeItem(at: folder) }
    let script = folder.appendingPathComponent("spin.script").path
    try "send first spin\n".write(toFile: script, atomically: true, encoding: .utf8)
    let out = folder.appendingPathComponent("spin.wav").path
    let result = try await CLI.run(
      "render", config, "--script", script, "--seconds", "1", "--out", out)
    #expect(result.exitCode == 3, "\(result.stderr)")
    #expect(
      result.stderr.contains(
        "patchbay: a plugin call did not return within 1 s: in its process: feature "
          + "dev.patchbay.fixture-hostile ("), "\(result.stderr)")
  }

  /// An app that only waits is in no call: it is never reported, however long it waits.
  @Test func anIdleAppIsLeftAlone() async throws {
    let result = try await Self.run(
      "send first steady\nwait 2500\nstate first\n", limits: "[limits]\ncall-seconds = 1",
      audio: true)
    #expect(result.exitCode == 0, "\(result.stderr)")
    #expect(result.stdout.contains("\"steady\": {}"), "\(result.stdout)")
  }

  /// The report is the last line of the run's recording, which still reads, with the steps
  /// before the hang.
  @Test func theReportEndsTheRecording() async throws {
    let (config, folder) = try ProcessorSafetyTests.app("[limits]\ncall-seconds = 1")
    defer { try? FileManager.default.removeItem(at: folder) }
    let script = folder.appendingPathComponent("hang.script").path
    try "send second quiet\nsend first hang\n".write(
      toFile: script, atomically: true, encoding: .utf8)
    let record = folder.appendingPathComponent("run.jsonl").path
    let result = try await CLI.run("run", config, "--script", script, "--record", record)
    #expect(result.exitCode == 3, "\(result.stderr)")
    let lines = try String(contentsOfFile: record, encoding: .utf8).split(separator: "\n")
    #expect(lines.last?.hasPrefix("{\"report\":\"patchbay: a plugin call did not return") == true)
    #expect(lines.last?.contains("action hang.") == true, "\(lines)")
    #expect(lines.contains { $0.contains("\"action\":\"quiet\"") }, "\(lines)")
    // The action that hung is in it, before the report (taken down before its reduce): the
    // replay hangs there again, named.
    #expect(lines.dropLast().last?.contains("\"action\":\"hang\"") == true, "\(lines)")
    let replay = try await CLI.run("replay", record)
    #expect(replay.exitCode == 3, "\(replay.stderr)")
    #expect(
      replay.stderr.contains("patchbay: a plugin call did not return within 1 s"),
      "\(replay.stderr)")
  }

  @Test func limitsOutOfRangeAreConfigErrorsWithTheirLine() async throws {
    let result = try await Self.run(
      "state first\n", limits: "[limits]\ncall-seconds = 0\naudio-periods = 0")
    #expect(result.exitCode == 1)
    #expect(result.stderr.contains("limits.call-seconds"), "\(result.stderr)")
    #expect(result.stderr.contains("limits.audio-periods"), "\(result.stderr)")
  }
}
