import Foundation
import PatchbayConfig
import Testing

/// `swap FEATURE PLUGIN` in scripts, in `--print-changes` and recordings, and `--watch`.
@Suite struct SwapCommandTests {
  func temporary(_ name: String) -> String {
    FileManager.default.temporaryDirectory.appendingPathComponent("\(UUID().uuidString)-\(name)")
      .path
  }

  @Test func aScriptSwapsAndTheRunReplaysToTheSameHash() async throws {
    let script = self.temporary("swap.script")
    try """
    send counter setStep(by: 2)
    send counter increment
    swap counter CounterAlt
    send counter increment
    expect counter /value 4
    expect counter /history [2]
    swap counter Counter
    expect counter /count 4
    """.write(toFile: script, atomically: true, encoding: .utf8)
    let recording = self.temporary("swap.jsonl")
    let run = try await CLI.run(
      "run", RunTests.config, "--script", script, "--print-changes", "--record", recording)
    #expect(run.exitCode == 0, "\(run.stderr)")
    #expect(
      run.stdout.contains(
        "[swap] dev.patchbay.counter: libCounter.so → libCounterAlt.so (generation "))
    #expect(run.stdout.contains("state schema 1 → 2, 1 instance(s) (counter), "))
    let hash = try #require(run.stdout.split(separator: "\n").last)
    let replay = try await CLI.run("replay", recording)
    #expect(replay.exitCode == 0, "\(replay.stderr)")
    #expect(replay.stdout == "\(hash)\n")
  }

  @Test func aRefusedSwapNamesTheLineAndKeepsTheState() async throws {
    let script = self.temporary("bad-swap.script")
    try "send counter increment\nswap counter Echo\n".write(
      toFile: script, atomically: true, encoding: .utf8)
    let run = try await CLI.run("run", RunTests.config, "--script", script)
    #expect(run.exitCode == 1)
    #expect(run.stderr.contains(":2: swap counter: "))
    #expect(
      run.stderr.contains("has no feature 'dev.patchbay.counter' (it has: dev.patchbay.echo)"))
    let usage = try await CLI.run(
      "run", RunTests.config, "--script", self.writeScript("swap counter\n"))
    #expect(usage.exitCode == 2)
    #expect(usage.stderr.contains("usage: swap FEATURE PLUGIN (swap counter CounterAlt)"))
  }

  /// `--watch`: the plugin file is replaced while the script waits; the run ends on the new
  /// code with the old state.
  @Test func watchSwapsARebuiltPlugin() async throws {
    let folder = self.temporary("watch")
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let plugin = "\(folder)/libCounter.so"
    try FileManager.default.copyItem(atPath: "\(CLI.directory)/libCounter.so", toPath: plugin)
    try FileManager.default.createSymbolicLink(
      atPath: "\(folder)/libPatchbaySDK.so",
      withDestinationPath: "\(CLI.directory)/libPatchbaySDK.so")
    try AppConfig.oneFeature("dev.patchbay.counter", of: plugin, key: "counter")
      .write(toFile: "\(folder)/app.toml", atomically: true, encoding: .utf8)
    // The file is replaced once the app has loaded it: its private folder (of plugin copies)
    // appears in XDG_RUNTIME_DIR then. Replaced earlier, the app would start with the new code
    // and have nothing to swap (on a loaded machine, starting can take longer than any fixed
    // sleep). The script waits for the watcher's swap.
    let runtime = "\(folder)/runtime"
    try FileManager.default.createDirectory(
      atPath: runtime, withIntermediateDirectories: false,
      attributes: [.posixPermissions: 0o700])
    let script = self.writeScript(
      "send counter increment\nwait swap 300000\nexpect counter /value 1\n")
    async let run = CLI.run(
      "run", "\(folder)/app.toml", "--watch", "--script", script,
      environment: ["XDG_RUNTIME_DIR": runtime])
    let loaded = ContinuousClock.now + .seconds(60)
    while (try? FileManager.default.contentsOfDirectory(atPath: runtime))?.isEmpty ?? true,
      ContinuousClock.now < loaded
    {
      try await Task.sleep(for: .milliseconds(10))
    }
    // The folder is made just before the first copy: let the load finish.
    try await Task.sleep(for: .milliseconds(300))
    try FileManager.default.copyItem(
      atPath: "\(CLI.directory)/libCounterAlt.so", toPath: "\(plugin).new")
    #expect(rename("\(plugin).new", plugin) == 0)
    let result = try await run
    #expect(result.exitCode == 0, "\(result.stdout)\n\(result.stderr)")
    #expect(
      result.stderr.contains("watch: swapped dev.patchbay.counter: libCounter.so → libCounter.so"))
  }

  func writeScript(_ text: String) -> String {
    let path = self.temporary("script")
    try? text.write(toFile: path, atomically: true, encoding: .utf8)
    return path
  }
}
