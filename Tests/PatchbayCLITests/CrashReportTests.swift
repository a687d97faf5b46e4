import Foundation
import Testing

/// A plugin that crashes the app says who: the feature, its original file,
/// the instance, the call and the action, then exit code 3; output written before survives a
/// redirected stdout.
@Suite struct CrashReportTests {
  @Test func aCrashInReduceNamesTheFeatureFileInstanceCallAndAction() async throws {
    let (folder, config) = try fixtureApp(
      mode: "crashes", key: "fixture", id: "dev.patchbay.fixture")
    defer { try? FileManager.default.removeItem(at: folder) }
    let plugin = folder.appendingPathComponent("crashes.so").path
    let script = folder.appendingPathComponent("crash.script").path
    try "render\nsend fixture noop\nrender\n".write(
      toFile: script, atomically: true, encoding: .utf8)

    let result = try await CLI.run("run", config, "--script", script)
    #expect(result.exitCode == 3)
    // The render before the crash reached the pipe; the one after never ran.
    #expect(result.stdout == "fixture\n")
    let report = result.stderr.split(separator: "\n").filter { !$0.isEmpty }.map(String.init)
    #expect(report.count == 1, "\(result.stderr)")
    #expect(
      report.first.map(withoutFlightFile)
        == "patchbay: a plugin crashed the app with SIGSEGV (invalid memory access) in its "
        + "reduce: feature dev.patchbay.fixture (\(plugin)), instance fixture, action noop. The "
        + "app stopped: fix that call in the plugin, or take the plugin out of the app.")
  }

  /// parse_action, format_action and migrate are noted too: the call is named, with the text.
  @Test func aCrashWhileParsingNamesTheCall() async throws {
    let (folder, config) = try fixtureApp(
      mode: "crashes", key: "fixture", id: "dev.patchbay.fixture")
    defer { try? FileManager.default.removeItem(at: folder) }
    let plugin = folder.appendingPathComponent("crashes.so").path
    let script = folder.appendingPathComponent("crash.script").path
    try "send fixture explode\n".write(toFile: script, atomically: true, encoding: .utf8)

    let result = try await CLI.run("run", config, "--script", script)
    #expect(result.exitCode == 3)
    #expect(
      withoutFlightFile(result.stderr.trimmingCharacters(in: .whitespacesAndNewlines))
        == "patchbay: a plugin crashed the app with SIGSEGV (invalid memory access) in its "
        + "parse_action: feature dev.patchbay.fixture (\(plugin)), action explode. The app "
        + "stopped: fix that call in the plugin, or take the plugin out of the app.")
  }
}

/// A report less the flight file it names at its end (" Its last actions: FILE (patchbay repro
/// FILE)."): a file of its own each run.
func withoutFlightFile(_ report: some StringProtocol) -> String {
  guard let named = report.range(of: " Its last actions: ") else { return String(report) }
  #expect(report.hasSuffix(").") && report.contains("(patchbay repro "), "\(report)")
  return String(report[..<named.lowerBound])
}
