import Foundation
import PatchbayConfig
import Testing

/// `[[feature]] persist = true` under `kill -9`: the state is written atomically
/// (write, fsync, rename), so whenever the process dies, the next run loads a whole state,
/// the one from before a save or after it, never half of one.
@Suite struct KeptStateTests {
  /// A folder with `kept.toml`: a Counter whose state is kept.
  static func keptApp() throws -> (folder: URL, config: String) {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let config = folder.appendingPathComponent("kept.toml").path
    try AppConfig.oneFeature(
      "dev.patchbay.counter", of: "Counter", key: "counter", app: ["name = \"Kept\""],
      plugins: ["search-paths = [\(AppConfig.quoted(CLI.directory))]"],
      feature: ["persist = true"]
    ).write(toFile: config, atomically: true, encoding: .utf8)
    return (folder, config)
  }

  /// A run that started from a kept state records it: its replay starts from it too, and
  /// ends with the same state hash.
  @Test func aRunFromKeptStateReplaysToTheSameHash() async throws {
    let (folder, config) = try Self.keptApp()
    defer { try? FileManager.default.removeItem(at: folder) }
    let environment = ["XDG_STATE_HOME": folder.appendingPathComponent("state").path]
    let script = folder.appendingPathComponent("once.script").path
    try "send counter increment\n".write(toFile: script, atomically: true, encoding: .utf8)
    let first = try await CLI.run("run", config, "--script", script, environment: environment)
    #expect(first.exitCode == 0, "\(first.stderr)")
    let recording = folder.appendingPathComponent("run.jsonl").path
    let recorded = try await CLI.run(
      "run", config, "--script", script, "--record", recording, environment: environment)
    #expect(recorded.exitCode == 0, "\(recorded.stderr)")
    let lines = try String(contentsOfFile: recording, encoding: .utf8)
    #expect(lines.contains(#""path":"counter","seq":1,"source":"kept""#), "\(lines)")
    let replayed = try await CLI.run("replay", recording, environment: environment)
    #expect(replayed.exitCode == 0, "\(replayed.stdout)\(replayed.stderr)")
    let hash = recorded.stdout.split(separator: "\n").last { $0.hasPrefix("state hash: ") }
    #expect(hash != nil && replayed.stdout.contains(String(hash!)), "\(replayed.stdout)")
  }

  @Test func killedDuringSavesEveryLoadIsWhole() async throws {
    let (folder, config) = try Self.keptApp()
    defer { try? FileManager.default.removeItem(at: folder) }
    // 200 actions, each a save, a millisecond apart: a kill lands among them.
    let saves = folder.appendingPathComponent("saves.script").path
    try String(repeating: "send counter increment\nwait 1\n", count: 200)
      .write(toFile: saves, atomically: true, encoding: .utf8)
    let read = folder.appendingPathComponent("read.script").path
    try "state counter\n".write(toFile: read, atomically: true, encoding: .utf8)
    let environment = ["XDG_STATE_HOME": folder.appendingPathComponent("state").path]

    var last = 0
    var generator = SystemRandomNumberGenerator()
    for _ in 0..<10 {
      let process = Process()
      process.executableURL = URL(fileURLWithPath: "\(CLI.directory)/patchbay")
      process.arguments = ["run", config, "--script", saves]
      process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
      process.standardOutput = FileHandle.nullDevice
      process.standardError = FileHandle.nullDevice
      try process.run()
      usleep(UInt32.random(in: 30_000...600_000, using: &generator))
      kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()

      let loaded = try await CLI.run("run", config, "--script", read, environment: environment)
      #expect(loaded.exitCode == 0, "\(loaded.stderr)")
      #expect(!loaded.stderr.contains("was not loaded"), "\(loaded.stderr)")
      let count = loaded.stdout.split(separator: "\n").first { $0.contains("\"count\"") }
        .flatMap { Int($0.filter(\.isNumber)) }
      #expect(count != nil, "\(loaded.stdout)")
      #expect((count ?? -1) >= last, "a kept state went back: \(count ?? -1) after \(last)")
      last = count ?? last
    }
    // Run to the end: every one of the 200 saves lands on the last whole state.
    let finished = try await CLI.run("run", config, "--script", saves, environment: environment)
    #expect(finished.exitCode == 0, "\(finished.stderr)")
    let final = try await CLI.run("run", config, "--script", read, environment: environment)
    let count = final.stdout.split(separator: "\n").first { $0.contains("\"count\"") }
      .flatMap { Int($0.filter(\.isNumber)) }
    #expect(count == last + 200, "\(final.stdout)")
    let files = try FileManager.default.contentsOfDirectory(
      atPath: folder.appendingPathComponent("state/patchbay/Kept").path)
    #expect(!files.contains { $0.contains("damaged") }, "\(files)")
  }
}
