import Foundation
import Testing

/// Where a `patchbay` process copies its plugins: a private folder it removes when it exits,
/// after removing the folders that processes which are gone left behind.
@Suite struct PluginCopiesTests {
  @Test func aRunLeavesNoFolderBehindAndClearsThoseOfGoneProcesses() async throws {
    let runtime = FileManager.default.temporaryDirectory
      .appendingPathComponent("runtime-\(UUID().uuidString)")
    try FileManager.default.createDirectory(
      at: runtime, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
    defer { try? FileManager.default.removeItem(at: runtime) }
    // A folder a process that is gone left behind (a crash during a load), named for a pid no
    // process can have: the kernel's limit itself (pids are below it). Not a free pid below
    // it: on a busy machine pids wrap within seconds (pid_max is 32768 here), and one did
    // take it during a run. Not a spawned child's: `Process.waitUntilExit` can hang on a Swift
    // concurrency thread.
    let gone =
      (try? String(contentsOfFile: "/proc/sys/kernel/pid_max", encoding: .utf8))
      .flatMap { Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) } ?? 4_194_304
    #expect(kill(gone, 0) != 0 && errno == ESRCH)
    let stale = runtime.appendingPathComponent("patchbay-\(gone)-cr4sh3")
    try FileManager.default.createDirectory(at: stale, withIntermediateDirectories: false)
    try Data("half a plugin".utf8).write(to: stale.appendingPathComponent("libCounter.1.1.so"))

    let script = runtime.appendingPathComponent("state.script")
    try "state counter\n".write(to: script, atomically: true, encoding: .utf8)
    let result = try await CLI.run(
      "run", RunTests.config, "--script", script.path,
      environment: ["XDG_RUNTIME_DIR": runtime.path])
    #expect(result.exitCode == 0, "\(result.stderr)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: runtime.path) == ["state.script"])
  }

  /// Ten copies of one plugin file are ten plugins, each under the id its file name gives it
  /// (the fixture reads its name with dladdr), however many processes load them at once: the
  /// startup benchmark's app.
  @Test func tenCopiesOfOneFileLoadAsTenPlugins() async throws {
    let folder = try numberedFixtureFolder((0..<10).map { "Startup\($0)" }, prefix: "copies")
    defer { try? FileManager.default.removeItem(at: folder) }
    var config = """
      [app]
      root = "f0"
      [plugins]
      search-paths = ["."]
      load = [\((0..<10).map { "\"Startup\($0)\"" }.joined(separator: ", "))]

      """
    for index in 0..<10 {
      config += """
        [[feature]]
        key = "f\(index)"
        id = "dev.patchbay.fixture.startup\(index)"
        \(index == 0 ? "" : "parent = \"f0\"")

        """
    }
    let app = folder.appendingPathComponent("app.toml").path
    try config.write(toFile: app, atomically: true, encoding: .utf8)

    let runs = try await withThrowingTaskGroup(of: CLI.Result.self) { group in
      for _ in 0..<3 { group.addTask { try await CLI.run("check", app) } }
      return try await group.reduce(into: []) { $0.append($1) }
    }
    for run in runs {
      #expect(run.exitCode == 0, "\(run.stderr)")
      #expect(run.stdout.contains("ok — 10 plugin(s), 10 feature(s)"), "\(run.stdout)")
    }
  }
}
