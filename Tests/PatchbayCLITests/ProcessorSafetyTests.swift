import Foundation
import PatchbayConfig
import Testing

/// A processor that writes NaN, infinities or +60 dB, met through the command line as a user
/// meets it: nothing traps, nothing non-finite is played, and the app says what happened
///. The Hostile fixture misbehaves when told; two instances of it play, the first
/// told to misbehave, the second adding 0.25 to every sample.
@Suite struct ProcessorSafetyTests {
  /// An app of two Hostile instances, `first` (the root) and `second`; `extra` is appended to
  /// its config (a `[limits]` table).
  static func app(_ extra: String = "") throws -> (config: String, folder: URL) {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("hostile-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
    let config = folder.appendingPathComponent("hostile.toml").path
    try """
    [app]
    root = "first"
    [plugins]
    search-paths = ["\(CLI.directory)"]
    load = ["TestFixtureHostile"]
    [[feature]]
    key = "first"
    id = "dev.patchbay.fixture-hostile"
    [[feature]]
    key = "second"
    id = "dev.patchbay.fixture-hostile"
    parent = "first"
    \(extra)
    """.write(toFile: config, atomically: true, encoding: .utf8)
    return (config, folder)
  }

  /// Renders 0.2 s with `first` told `action`; returns the result and the WAV's samples.
  static func render(_ action: String) async throws -> (CLI.Result, [Int16]) {
    let (config, folder) = try Self.app()
    defer { try? FileManager.default.removeItem(at: folder) }
    let script = folder.appendingPathComponent("\(action).script").path
    try "send first \(action)\n".write(toFile: script, atomically: true, encoding: .utf8)
    let out = folder.appendingPathComponent("\(action).wav").path
    let result = try await CLI.run(
      "render", config, "--script", script, "--out", out, "--seconds", "0.2")
    let wav = (try? Data(contentsOf: URL(fileURLWithPath: out))) ?? Data()
    let samples = wav.dropFirst(44).withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
    return (result, samples)
  }

  @Test(arguments: ["nan", "inf"])
  func aNonFiniteProcessorIsMutedNamedAndTheOthersPlayOn(_ action: String) async throws {
    let (result, samples) = try await Self.render(action)
    #expect(result.exitCode == 0, "\(result.stderr)")
    #expect(samples.count == 2 * 9_600)
    // The report, once: the feature, the instance, the period.
    let reports = result.stderr.split(separator: "\n").filter { $0.contains("NaN or infinite") }
    #expect(reports.count == 1, "\(result.stderr)")
    #expect(
      reports.first?.hasPrefix(
        "dev.patchbay.fixture-hostile: error: first: its processor wrote NaN or infinite samples "
          + "in period 0 (at 0.000 s).") == true, "\(result.stderr)")
    // Period 0: the mix's NaN (left) was set to 0, the rest played (right: 0.25 + 0.25).
    // Period 1: each processor is checked; the first's NaN is set to 0 and it is muted, the
    // second's 0.25 plays. From period 2 on, only the second plays: 0.25 a sample.
    #expect(Array(samples.prefix(2)) == [0, 16_384])
    #expect(Array(samples[256..<258]) == [8_192, 16_384])
    #expect(samples.dropFirst(2 * 256).allSatisfy { $0 == 8_192 })
  }

  /// NaN in one period only: not played, said, and nobody muted, since none is caught again.
  @Test func aNonFiniteSampleOnceIsSaidAndNobodyIsMuted() async throws {
    let (result, samples) = try await Self.render("nanOnce")
    #expect(result.exitCode == 0, "\(result.stderr)")
    let reports = result.stderr.split(separator: "\n").filter { $0.contains("NaN or infinite") }
    #expect(
      reports == [
        "[audio]: error: a processor wrote NaN or infinite samples in period 0 (at 0.000 s), "
          + "once. They were not played; none has written any since, so which one is not known. "
          + "If one does again, it is muted and named."
      ], "\(result.stderr)")
    // Period 0 (128 stereo frames): the left NaNs set to 0; then both processors play on.
    #expect(samples.prefix(256) == ArraySlice(Array(repeating: [0, 16_384], count: 128).joined()))
    #expect(samples.dropFirst(256).allSatisfy { $0 == 16_384 })
  }

  @Test func aLoudProcessorIsClippedAndTheRenderSaysByHowMuch() async throws {
    let (result, samples) = try await Self.render("loud")
    #expect(result.exitCode == 0, "\(result.stderr)")
    #expect(result.stdout.contains("peak +60.0 dBFS before clipping; 19200 samples clipped"))
    #expect(
      result.stderr.contains(
        "warning: 19200 of 19200 samples were beyond full scale and clipped (100.00 %); the mix "
          + "peaked at +60.0 dBFS."), "\(result.stderr)")
    #expect(samples.count == 19_200 && samples.allSatisfy { $0 == 32_767 })
  }

  @Test func aQuietRenderSaysItsPeakAndNothingClipped() async throws {
    let (result, samples) = try await Self.render("steady")
    #expect(result.exitCode == 0, "\(result.stderr)")
    // Two processors adding 0.25 each: 0.5, -6.0 dBFS.
    #expect(result.stdout.contains("peak -6.0 dBFS before clipping; 0 samples clipped"))
    #expect(!result.stderr.contains("clipped"))
    #expect(samples.allSatisfy { $0 == 16_384 })
  }

  /// Live on the paced null device: the processor is muted and named while the app runs on,
  /// its state intact.
  @Test func liveTheAppRunsOnAndSaysWhichProcessorWasMuted() async throws {
    let (config, folder) = try Self.app()
    defer { try? FileManager.default.removeItem(at: folder) }
    let script = folder.appendingPathComponent("live.script").path
    try "send first nan\nwait 300\nsend second quiet\nstate first\nstate second\n".write(
      toFile: script, atomically: true, encoding: .utf8)
    let result = try await CLI.run("run", config, "--audio", "null", "--script", script)
    #expect(result.exitCode == 0, "\(result.stderr)")
    let reports = result.stderr.split(separator: "\n").filter { $0.contains("NaN or infinite") }
    #expect(reports.count == 1, "\(result.stderr)")
    #expect(reports.first?.contains("first: its processor wrote NaN") == true)
    #expect(result.stdout.contains("\"nan\": {}"), "\(result.stdout)")
    #expect(result.stdout.contains("\"quiet\": {}"), "\(result.stdout)")
  }

  /// Runs `script` live on the paced null device.
  static func runLive(_ script: String) async throws -> CLI.Result {
    let (config, folder) = try Self.app()
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("live.script").path
    try script.write(toFile: file, atomically: true, encoding: .utf8)
    return try await CLI.run("run", config, "--audio", "null", "--script", file)
  }

  @Test func aCrashOnTheAudioThreadNamesTheProcessor() async throws {
    let result = try await Self.runLive("send first crash\nwait 2000\n")
    #expect(result.exitCode == 3, "\(result.stderr)")
    #expect(
      result.stderr.contains(
        "patchbay: a plugin crashed the app with SIGSEGV (invalid memory access) in its "
          + "process: feature dev.patchbay.fixture-hostile ("), "\(result.stderr)")
    #expect(result.stderr.contains("libTestFixtureHostile.so), instance first."))
  }

  @Test func aCrashOnAThreadThePluginStartedNamesThePlugin() async throws {
    let result = try await Self.runLive("send first crashThread\nwait 2000\n")
    #expect(result.exitCode == 3, "\(result.stderr)")
    #expect(
      result.stderr.contains(
        "in its own code, outside any call from the host (a thread the plugin started): "
          + "feature dev.patchbay.fixture-hostile-plugin ("), "\(result.stderr)")
  }

  /// A processor that calls `host->send` from `process` every period (the Flawed fixture as
  /// `sends.so`): the app says so once, naming the feature, the instance and the call, and the
  /// render goes on.
  @Test func aHostCallFromTheAudioThreadIsSaidOnceNamingTheProcessor() async throws {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("sends-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
    defer { try? FileManager.default.removeItem(at: folder) }
    let plugin = folder.appendingPathComponent("sends.so").path
    try FileManager.default.copyItem(
      atPath: "\(CLI.directory)/libTestFixtureFlawed.so", toPath: plugin)
    let config = folder.appendingPathComponent("sends.toml").path
    try AppConfig.oneFeature("dev.patchbay.fixture.flawed", of: plugin, key: "counter")
      .write(toFile: config, atomically: true, encoding: .utf8)
    let out = folder.appendingPathComponent("sends.wav").path
    let result = try await CLI.run("render", config, "--out", out, "--seconds", "0.2")
    #expect(result.exitCode == 0, "\(result.stderr)")
    #expect(result.stdout.contains("75 periods"), "\(result.stdout)")
    let said: String =
      "dev.patchbay.fixture.flawed: error: counter: its processor called host->send from the "
      + "audio thread, where a processor may call only host->now, events->push and "
      + "midi_out->push. The call went through, but it can lock or allocate there and make "
      + "the sound drop out; push an event for the reducer instead, then swap it in."
    let reports = result.stderr.split(separator: "\n").filter { $0.contains("audio thread") }
    #expect(reports.map(String.init) == [said], "\(result.stderr)")
  }
}
