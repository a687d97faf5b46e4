import Foundation
import Testing

/// `patchbay validate --out`: a failure validate found, written as `patchbay repro` writes a
/// crash of a real run — a script and a test that fail while the plugin has the fault.
@Suite struct ValidateOutTests {
  /// Validates a copy of the Flawed fixture with `flaw`, only `test`, seed 3, `--out` beside it;
  /// the plugin's path, the output and the out folder. The caller removes the copy's folder.
  static func validate(_ flaw: String, only test: String) async throws
    -> (plugin: String, result: CLI.Result, out: String)
  {
    let plugin = try ValidateTests.flawed(flaw)
    let out = URL(fileURLWithPath: plugin).deletingLastPathComponent().appendingPathComponent("out")
    let result = try await CLI.run(
      "validate", plugin, "--seed", "3", "--only", test, "--out", out.path)
    return (plugin, result, out.path)
  }

  @Test func aCrashFoundByFuzzingIsWrittenAsAScriptAndATest() async throws {
    let (plugin, result, out) = try await Self.validate("crashes", only: "fuzz.actions")
    defer {
      try? FileManager.default.removeItem(
        atPath: URL(fileURLWithPath: out).deletingLastPathComponent().path)
    }
    #expect(result.exitCode == 1)
    #expect(result.stdout.contains("reproduce: seed 3: add(n: 13)\n"), "\(result.stdout)")
    #expect(result.stdout.contains("      kept 1 of 1 steps, dropped 0, in "), "\(result.stdout)")
    #expect(result.stdout.contains("      the run ended: patchbay: a plugin crashed the app"))

    // The same files as patchbay repro's, in a folder per test, for an app of the plugin alone.
    let written = "\(out)/fuzz.actions"
    let script = try String(contentsOfFile: "\(written)/repro.script", encoding: .utf8)
    #expect(
      script.split(separator: "\n").filter { $0.hasPrefix("send ") } == ["send flawed add(n: 13)"])
    let test = try String(contentsOfFile: "\(written)/FlawedReproTests.swift", encoding: .utf8)
    #expect(test.contains(#"try await app.send("flawed", "add(n: 13)")"#), "\(test)")
    #expect(test.contains("patchbay validate \(plugin) --only fuzz.actions --seed 3"))

    // The script crashes the app as validate's child crashed.
    let run = try await CLI.run("run", "\(written)/app.toml", "--script", "\(written)/repro.script")
    #expect(run.exitCode == 3, "\(run.stderr)")
    #expect(run.stderr.contains("SIGSEGV"), "\(run.stderr)")
  }

  /// A failure an app's run does not show (two runs of the same actions that differ are
  /// validate's own finding) is said, and no test that could not fail is written.
  @Test func aFailureAnAppCannotShowIsSaidAndNotWritten() async throws {
    let (_, result, out) = try await Self.validate("clock", only: "determinism")
    defer {
      try? FileManager.default.removeItem(
        atPath: URL(fileURLWithPath: out).deletingLastPathComponent().path)
    }
    #expect(result.exitCode == 1)
    #expect(
      result.stdout.contains(
        "      determinism: not written as a test: an app of dev.patchbay.fixture.flawed alone "
          + "takes these actions without a crash, hang, refusal or NaN"), "\(result.stdout)")
    let written = try FileManager.default.contentsOfDirectory(atPath: "\(out)/determinism")
    #expect(!written.contains { $0.hasSuffix(".swift") || $0.hasSuffix(".script") }, "\(written)")
  }

  /// An --out that cannot be written (here a file, not a folder) is named with what to do;
  /// validate's own result still stands.
  @Test func anOutThatCannotBeWrittenIsNamed() async throws {
    let plugin = try ValidateTests.flawed("crashes")
    let folder = URL(fileURLWithPath: plugin).deletingLastPathComponent()
    defer { try? FileManager.default.removeItem(at: folder) }
    let out = folder.appendingPathComponent("taken").path
    try "a file".write(toFile: out, atomically: true, encoding: .utf8)
    let result = try await CLI.run(
      "validate", plugin, "--seed", "3", "--only", "fuzz.actions", "--out", out)
    #expect(result.exitCode == 1)
    #expect(result.stdout.contains("reproduce: seed 3: add(n: 13)\n"), "\(result.stdout)")
    #expect(
      result.stdout.contains("fuzz.actions: not written as a test: "), "\(result.stdout)")
    #expect(result.stdout.contains("name another folder with --out"), "\(result.stdout)")
    #expect(try String(contentsOfFile: out, encoding: .utf8) == "a file")
  }
}
