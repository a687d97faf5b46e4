import Foundation
import PatchbayConfig
import Testing

@Suite struct RunTests {
  static let config = "\(CheckTests.root)/host-config/counter-echo.toml"

  func script(_ text: String) throws -> String {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent(
      "\(UUID().uuidString).script")
    try text.write(to: file, atomically: true, encoding: .utf8)
    return file.path
  }

  @Test func runsAScriptFile() async throws {
    let path = try self.script("send counter increment\nexpect counter /count 1\nstate counter\n")
    let result = try await CLI.run("run", Self.config, "--script", path)
    #expect(result.exitCode == 0)
    #expect(result.stdout == "{\n  \"count\": 1,\n  \"step\": 1,\n  \"pending\": 0\n}\n")
  }

  @Test func printChangesShowsSourcesStateDiffsAndNavigation() async throws {
    let path = try self.script("send counter incrementLater(ms: 10)\nsettle\npush echo\npop\n")
    let result = try await CLI.run("run", Self.config, "--script", path, "--print-changes")
    #expect(result.exitCode == 0)
    #expect(
      result.stdout == """
        [command] counter ← incrementLater(ms: 10)
            /pending: 0 → 1
        [effect] counter ← delayedIncrement
            /count: 0 → 1
            /pending: 1 → 0
        [navigation] push(node: "echo") → stack [echo#1]
        [navigation] pop → stack []

        """)
  }

  @Test func startsAtADeepLink() async throws {
    let path = try self.script("render\n")
    let result = try await CLI.run("run", Self.config, "--script", path, "--route", "/echo")
    #expect(result.exitCode == 0)
    #expect(result.stdout == "Heard 0 message(s). Last:\n\n")
  }

  @Test func failingLineExits1WithItsLineNumber() async throws {
    let path = try self.script("send counter increment\n\nexpect counter /count 3\n")
    let result = try await CLI.run("run", Self.config, "--script", path)
    #expect(result.exitCode == 1)
    #expect(result.stderr == "Error: \(path):3: expect counter /count: expected 3, found 1\n")
  }

  @Test func malformedLineExits2() async throws {
    let path = try self.script("sned counter increment\n")
    let result = try await CLI.run("run", Self.config, "--script", path)
    #expect(result.exitCode == 2)
    #expect(
      result.stderr.hasPrefix("Error: \(path):1: unknown command 'sned'. Did you mean 'send'?"))
  }

  @Test func badConfigOrRouteExits1() async throws {
    let route = try await CLI.run(
      "run", Self.config, "--script", try self.script(""), "--route", "/nope")
    #expect(route.exitCode == 1)
    #expect(route.stderr.contains("no route '/nope'."))
    let config = try await CLI.run("run", "/nowhere.toml", "--script", try self.script(""))
    #expect(config.exitCode == 1)
    #expect(
      config.stderr.contains(
        "/nowhere.toml: cannot read the file: no such file or directory (check the path)"))
  }

  /// A script that cannot be read says why: the system's reason, and what to do.
  @Test func anUnreadableScriptSaysWhy() async throws {
    let missing = try await CLI.run("run", Self.config, "--script", "/nowhere.script")
    #expect(missing.exitCode == 1)
    #expect(
      missing.stderr.contains(
        "/nowhere.script: cannot read the script: no such file or directory (check the path)."))
    let folder = try await CLI.run(
      "run", Self.config, "--script", FileManager.default.temporaryDirectory.path)
    #expect(folder.stderr.contains("cannot read the script: it is a folder (give a file)."))
  }

  /// A misspelled `--isolate` is a usage error naming the plugins the app loads, not a plugin
  /// that silently runs unisolated.
  @Test func aMisspelledIsolateIsAUsageError() async throws {
    let result = try await CLI.run(
      "run", Self.config, "--isolate", "Countr", "--script", try self.script("state counter"))
    #expect(result.exitCode == 2)
    #expect(
      result.stderr.contains(
        "--isolate Countr: \(Self.config) loads no plugin named 'Countr'. Did you mean "
          + "'Counter'? It loads: Counter, Echo; or write --isolate all."))
    let named = try await CLI.run(
      "run", Self.config, "--isolate", "Counter", "--script", try self.script("state counter"))
    #expect(named.exitCode == 0, "\(named.stderr)")
  }
}

/// A folder holding the misbehaving fixture as `<mode>.so` and an `app.toml` whose root, `key`,
/// is the fixture's feature `id` (see Plugins/Fixtures/Misbehaving).
func fixtureApp(mode: String, key: String, id: String) throws -> (URL, String) {
  let folder = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
  try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
  let plugin = folder.appendingPathComponent("\(mode).so").path
  try FileManager.default.copyItem(
    atPath: "\(CLI.directory)/libTestFixtureMisbehaving.so", toPath: plugin)
  let config = folder.appendingPathComponent("app.toml").path
  try AppConfig.oneFeature(id, of: plugin, key: key)
    .write(toFile: config, atomically: true, encoding: .utf8)
  return (folder, config)
}

/// `patchbay run` with the app queue: what a script sees no longer depends on timing.
@Suite struct RunDeterminismTests {
  /// `printf 'send home open\nstate\n' | patchbay run host-config/app.toml` once showed the
  /// pushed screen in 3 of 8 runs.
  @Test func aNavigationRequestShowsInTheNextLineEveryTime() async throws {
    let script = FileManager.default.temporaryDirectory.appendingPathComponent(
      "\(UUID().uuidString).script")
    try "send home open\nstate\n".write(to: script, atomically: true, encoding: .utf8)
    for _ in 0..<8 {
      let result = try await CLI.run(
        "run", "\(CheckTests.root)/host-config/app.toml", "--script", script.path)
      #expect(result.exitCode == 0)
      #expect(result.stdout.contains("\"stack\": [\n      \"counter#1\"\n    ]"))
      #expect(result.stdout.contains("\"counter#1\": {"))
    }
  }
}

extension RunDeterminismTests {
  /// `host->log` went nowhere in `patchbay run`; a script now shows it on stderr.
  @Test func aPluginsLogReachesStderrNamingItsFeature() async throws {
    let (folder, config) = try fixtureApp(
      mode: "errorlater", key: "fixture", id: "dev.patchbay.fixture-errors-later")
    let script = folder.appendingPathComponent("log.script").path
    try "send fixture first\nsend fixture second\n".write(
      toFile: script, atomically: true, encoding: .utf8)
    let result = try await CLI.run("run", config, "--script", script)
    #expect(result.exitCode == 1)
    #expect(
      result.stderr.contains(
        "dev.patchbay.fixture-errors-later: warning: the first action starts a late error\n"))
    #expect(result.stderr.contains("log.script:2:"))
    #expect(result.stderr.contains("this action is refused"))
  }
}

extension RunDeterminismTests {
  /// `--record` after bad state bytes used to write `stateHash "unknown"` and exit 0.
  @Test func aRecordingWithoutAFinalStateFails() async throws {
    let (folder, config) = try fixtureApp(
      mode: "counterbadstate", key: "counter", id: "dev.patchbay.counter")
    let script = folder.appendingPathComponent("render.script").path
    try "render\n".write(toFile: script, atomically: true, encoding: .utf8)
    let recording = folder.appendingPathComponent("run.jsonl").path
    let result = try await CLI.run("run", config, "--script", script, "--record", recording)
    #expect(result.exitCode == 1)
    #expect(result.stderr.contains("\(recording): the recording has no final state"))
    #expect(!result.stdout.contains("state hash"))
  }
}
