import Foundation
import PatchbayAudioDevice
import PatchbayAudioGraph
import PatchbayConfig
import PatchbayEncoding
import PatchbayHost
import PatchbayLoader
import Testing

/// A copy of the hostile fixture (Plugins/Fixtures/Hostile), isolated, as the app's root `h`.
func hostileApp(tables: String = "") throws -> AppRuntime {
  try pluginApp(
    try hostileCopy(), id: "dev.patchbay.fixture-hostile", key: "h", tables: tables,
    isolated: true)
}

/// A copy of the hostile fixture's library, in a folder of its own.
func hostileCopy() throws -> String {
  let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
    "patchbay-hostile-\(UUID().uuidString)")
  try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
  let copy = folder.appendingPathComponent("hostile.so").path
  try FileManager.default.copyItem(
    atPath: try BuiltPlugins.path("TestFixtureHostile"), toPath: copy)
  return copy
}

/// The reason an action was refused with, or nil when it was not.
func refusalReason(_ body: () throws -> Void) -> String? {
  switch refusal(body) {
  case .failed(_, let reason)?: reason
  case let other?: "\(other)"
  case nil: nil
  }
}

/// Plugins in processes of their own: every call crosses, and a crash or a hang
/// costs a restart, never the app or its state.
@Suite struct IsolatedPluginTests {
  /// A plugin's process gets nothing the host had open but its channel: the writing end of a
  /// pipe the host holds (a FIFO a test writes MIDI into) is closed when the host closes it,
  /// and the reader sees the end.
  @Test func aPluginsProcessHoldsNoneOfTheHostsDescriptors() throws {
    var ends: [Int32] = [-1, -1]
    #expect(pipe(&ends) == 0)  // not close-on-exec, as a FileHandle's are not
    defer { close(ends[0]) }
    let app = try hostileApp()  // its process starts now, with the pipe open here
    try app.send("h", "steady")
    close(ends[1])
    var reader = pollfd(fd: ends[0], events: Int16(POLLIN), revents: 0)
    // No writer is left, at once: not a wait for anything.
    #expect(poll(&reader, 1, 0) == 1)
    #expect(reader.revents & Int16(POLLHUP) != 0, "revents \(reader.revents)")
  }

  /// The demo's Counter, isolated, answers as it does in this process: actions, state, view,
  /// effects that send back later.
  @Test func anIsolatedFeatureBehavesAsOneLoadedHere() async throws {
    var results: [String] = []
    for isolate in [[], ["isolate = [\"Counter\"]"]] {
      let parsed = try AppConfig(
        parsing: AppConfig.oneFeature(
          "dev.patchbay.counter", of: "Counter", key: "counter", plugins: isolate),
        file: "counter.toml")
      #expect(parsed.isolated == (isolate.isEmpty ? [] : ["Counter"]))
      let loader = parsed.loader(firstSearchPaths: [BuiltPlugins.directory])
      let app = try AppRuntime(
        config: parsed, registry: try parsed.loadPlugins(with: loader), loader: loader)
      try app.send("counter", "setStep(by: 5)")
      try app.send("counter", "increment")
      try app.send("counter", "delayedIncrement")
      #expect(await app.settle(timeout: .seconds(300)))
      let counter = try app.instance("counter")
      #expect(counter.failures.isEmpty)
      results.append(try counter.stateJSON() + "\n" + (try counter.render()))
    }
    #expect(results[0] == results[1])
    #expect(results[1].contains("\"count\":10"), "\(results[1])")
  }

  /// A NULL dereference in reduce: the action is refused with the report, the state is as of
  /// the last completed action, and the next action runs in a new process.
  @Test func aCrashInReduceCostsARestartNotTheState() throws {
    let app = try pluginApp(
      try BuiltPlugins.fixture("crashes"), id: "dev.patchbay.fixture", key: "f", isolated: true)
    let before = try app.stateValue()
    let reason = refusalReason { try app.send("f", "noop") }
    #expect(reason?.contains("crashed: SIGSEGV (invalid memory access) in its reduce") == true)
    #expect(reason?.contains("instance f") == true, "\(reason ?? "")")
    #expect(reason?.contains("started again") == true)
    #expect(try app.stateValue() == before)
    // parse_action crashes on "explode": named too, and the app goes on.
    let parse = refusalReason { try app.send("f", "explode") }
    #expect(parse?.contains("in its parse_action") == true, "\(parse ?? "")")
    #expect(try app.instance("f").render() == "fixture")
  }

  /// reduce never returns: past `[limits] call-seconds` the process is ended and started
  /// again with the state after the last completed action.
  @Test func aHangInReduceIsEndedAndTheStateKept() throws {
    let app = try hostileApp(tables: "[limits]\ncall-seconds = 1")
    try app.send("h", "quiet")
    let reason = refusalReason { try app.send("h", "hang") }
    #expect(reason?.contains("hung: its reduce did not return within 1 s") == true)
    #expect(try app.instance("h").render() == "hostile: quiet")
    try app.send("h", "loud")
    #expect(try app.instance("h").render() == "hostile: loud")
  }

  /// A thread of the plugin's own sends an action, then crashes: the action arrives, the
  /// crash is logged, and the instance runs on in a new process.
  @Test func aCrashOnAnEffectThreadIsLoggedAndRestarts() async throws {
    let app = try hostileApp()
    let logs = LogLines()
    app.onLog { _, _, line in logs.append(line) }
    try app.send("h", "loud")
    try app.send("h", "crashThread")
    logs.wait(for: "crashed: SIGSEGV")
    #expect(logs.contains("outside any call from the host"), "\(logs.lines)")
    // A C feature without resume_effects: what its effects did is gone, and the log says so.
    logs.wait(for: "any effects it ran ended with its process")
    #expect(logs.contains("give the feature a resume"), "\(logs.lines)")
    #expect(await app.settle(timeout: .seconds(300)))
    #expect(try app.instance("h").render() == "hostile: quiet")
    try app.send("h", "steady")
    #expect(try app.instance("h").render() == "hostile: steady")
  }

  /// A processor that never returns from `process`: offline, the period is waited for until
  /// `call-seconds`, then the process is ended as a hang and started again; live, after
  /// `audio-periods` periods of silence. The report names the processor.
  @Test func aHangInProcessIsEndedAndRestarted() throws {
    let app = try hostileApp(tables: "[limits]\ncall-seconds = 1")
    let logs = LogLines()
    app.onLog { _, _, line in logs.append(line) }
    let render = try OfflineRender(
      app: app, format: AudioFormat(sampleRate: 48_000, channels: 1, periodFrames: 128))
    try app.send("h", "spin")
    #expect(try self.peak(render, periods: 1) == 0)
    logs.wait(for: "hung: its processor")
    #expect(
      logs.contains("hung: its processor did not render a period within 1 s"), "\(logs.lines)")
    try app.send("h", "steady")
    #expect(abs(try self.peak(render, periods: 4) - 0.25) < 0.001)
  }

  /// NaN from an isolated processor is caught as from one in this process: not played, the
  /// processor muted and named.
  @Test func nanFromAnIsolatedProcessorIsMutedAndNamed() throws {
    let app = try hostileApp()
    let logs = LogLines()
    app.onLog { _, _, line in logs.append(line) }
    let render = try OfflineRender(
      app: app, format: AudioFormat(sampleRate: 48_000, channels: 1, periodFrames: 128))
    try app.send("h", "nan")
    _ = try self.peak(render, periods: 40)
    app.deliverProcessorEvents()
    #expect(
      logs.contains("h: its processor wrote NaN or infinite samples in period"), "\(logs.lines)")
    // Muted: nothing more of it is played, NaN or not.
    #expect(try self.peak(render, periods: 4) == 0)
  }

  /// A swap to a build that crashes on its first action rolls back, the state kept.
  @Test func aSwapToABuildThatCrashesRollsBack() throws {
    let valid = try BuiltPlugins.fixture("valid")
    let app = try pluginApp(valid, id: "dev.patchbay.fixture", key: "f", isolated: true)
    try app.send("f", "noop")
    let crashes = try BuiltPlugins.fixture("crashes")
    try app.swap("f", to: crashes)
    let reason = refusalReason { try app.send("f", "noop") }
    #expect(reason?.contains("crashed: SIGSEGV (invalid memory access) in its reduce") == true)
    #expect(reason?.contains("Rolled back to \(valid): \(crashes)") == true, "\(reason ?? "")")
    try app.send("f", "noop")
    #expect(app.registry["dev.patchbay.fixture"]!.plugin.path == valid)
  }

  /// Three failures within a minute disable the plugin: its screen says why, its last state
  /// stays readable, and the app runs on.
  @Test func aPluginThatKeepsCrashingIsDisabled() throws {
    let app = try pluginApp(
      try BuiltPlugins.fixture("crashes"), id: "dev.patchbay.fixture", key: "f", isolated: true)
    for _ in 0..<3 { _ = refusalReason { try app.send("f", "noop") } }
    let render = try app.instance("f").render()
    #expect(render.hasPrefix("⚠ dev.patchbay.fixture-plugin"), "\(render)")
    #expect(render.contains("is disabled: it failed 3 times within 60 s"))
    let reason = refusalReason { try app.send("f", "noop") }
    #expect(reason?.contains("is disabled") == true)
    _ = try app.stateValue()
  }

  /// A swap to a build that fails on its first action is rolled back: the state is kept, and
  /// the old code runs the next action.
  @Test func aSwapToABuildThatHangsRollsBack() throws {
    let app = try hostileApp(tables: "[limits]\ncall-seconds = 1")
    let before = app.registry["dev.patchbay.fixture-hostile"]!.plugin.path
    try app.send("h", "loud")
    let next = try hostileCopy()
    try app.swap("h", to: next)
    #expect(app.registry["dev.patchbay.fixture-hostile"]!.plugin.path == next)
    let reason = refusalReason { try app.send("h", "hang") }
    #expect(reason?.contains("hung: its reduce did not return within 1 s") == true)
    #expect(
      reason?.contains("Rolled back to \(before): \(next), swapped in") == true, "\(reason ?? "")")
    #expect(app.registry["dev.patchbay.fixture-hostile"]!.plugin.path == before)
    #expect(try app.instance("h").render() == "hostile: loud")
    try app.send("h", "quiet")
    #expect(try app.instance("h").render() == "hostile: quiet")
  }

  /// Past its probation, a swapped-in build that fails is restarted, not rolled back.
  @Test func aFailureAfterTheProbationIsNotRolledBack() throws {
    let app = try hostileApp(
      tables: "[limits]\ncall-seconds = 1\nrollback-actions = 1\nrollback-seconds = 0")
    let next = try hostileCopy()
    try app.swap("h", to: next)
    try app.send("h", "loud")
    let reason = refusalReason { try app.send("h", "hang") }
    #expect(reason?.contains("Rolled back") == false, "\(reason ?? "")")
    #expect(app.registry["dev.patchbay.fixture-hostile"]!.plugin.path == next)
    #expect(try app.instance("h").render() == "hostile: loud")
  }

  /// What the sandbox refuses (sockets, exec, ptrace), and what `[sandbox]` lets one
  /// plugin do; a memory limit ends a memory bomb as a crash.
  @Test func theSandboxAndTheLimitsHoldFromAFixture() throws {
    let confined = try hostileApp()
    try confined.send("h", "probe")
    #expect(
      try confined.instance("h").render()
        == "hostile: steady; socket EPERM, exec EPERM, ptrace EPERM")
    let file = try hostileCopy()
    let allowed = try pluginApp(
      file, id: "dev.patchbay.fixture-hostile", key: "h",
      tables: "[sandbox]\n\"\(file)\" = [\"sockets\", \"exec\", \"ptrace\"]", isolated: true)
    try allowed.send("h", "probe")
    #expect(
      try allowed.instance("h").render()
        == "hostile: steady; socket opened, exec ENOENT, ptrace ESRCH")
    // Only the memory limit ends it: the watchdog's bound is far off, however slow the machine.
    let bombed = try hostileApp(tables: "[limits]\nisolated-memory-mb = 256\ncall-seconds = 300")
    try bombed.send("h", "loud")
    let reason = refusalReason { try bombed.send("h", "bomb") }
    #expect(reason?.contains("crashed: SIGSEGV") == true, "\(reason ?? "")")
    #expect(
      reason?.contains("MiB of its 256 MiB of memory in use ([limits] isolated-memory-mb") == true)
    #expect(try bombed.instance("h").render() == "hostile: loud")
    // CPU time: a reduce that spins is ended by the kernel past the limit, before the
    // watchdog's call-seconds.
    let spun = try hostileApp(tables: "[limits]\nisolated-cpu-seconds = 1\ncall-seconds = 300")
    let spin = refusalReason { try spun.send("h", "hang") }
    #expect(
      spin?.contains("crashed: its process used up its 1 s of CPU time ([limits] isolated-cpu")
        == true, "\(spin ?? "")")
  }

  /// A crash in render fails that render only: the state and the next render are whole.
  @Test func aCrashInRenderCostsThatRender() throws {
    let app = try hostileApp()
    try app.send("h", "loud")
    try app.send("h", "crashRender")
    #expect(throws: FeatureCallError.self) { try app.instance("h").render() }
    #expect(try app.instance("h").render() == "hostile: loud")
  }

  /// Offline render with the studio's Metronome and Synth isolated is byte-identical to the
  /// render in this process.
  @Test func anIsolatedRenderIsByteIdentical() throws {
    var files: [String] = []
    defer { files.forEach { try? FileManager.default.removeItem(atPath: $0) } }
    for isolate in [false, true] {
      let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
      var config = try AppConfig(
        contentsOf: root.appendingPathComponent("host-config/trio.toml").path)
      if isolate { config.isolated = ["Metronome", "Synth"] }
      let loader = config.loader(firstSearchPaths: [BuiltPlugins.directory])
      let app = try AppRuntime(
        config: config, registry: try config.loadPlugins(with: loader), loader: loader)
      try app.send("metronome", "start")
      let render = try OfflineRender(
        app: app, format: AudioFormat(sampleRate: 48_000, channels: 2, periodFrames: 128))
      let file = temporaryFile("studio.wav")
      files.append(file)
      let wav = try WAVFileOutput(path: file, format: render.format)
      render.run(frames: 48_000, into: wav)
      wav.close()
    }
    let bytes = try files.map { try Data(contentsOf: URL(fileURLWithPath: $0)) }
    #expect(bytes[0].count > 48_000 * 4)
    #expect(bytes[0] == bytes[1])
  }

  /// A processor that crashes its process: the periods until the restart are silence, the
  /// crash is logged, and the processor plays again from the new process.
  @Test func aCrashInProcessIsSilenceThenARestart() throws {
    let app = try hostileApp()
    let logs = LogLines()
    app.onLog { _, _, line in logs.append(line) }
    let render = try OfflineRender(
      app: app, format: AudioFormat(sampleRate: 48_000, channels: 1, periodFrames: 128))
    let before = try self.peak(render, periods: 4)
    #expect(abs(before - 0.25) < 0.001)  // steady: 0.25 on every sample
    try app.send("h", "crash")
    #expect(try self.peak(render, periods: 1) == 0)
    logs.wait(for: "in its process")
    #expect(
      logs.contains("crashed: SIGSEGV (invalid memory access) in its process"), "\(logs.lines)")
    // The new process starts from the state after `crash`, and would crash again in its next
    // period: set it back to steady first, and it plays.
    try app.send("h", "steady")
    #expect(abs(try self.peak(render, periods: 4) - 0.25) < 0.001)
  }

  private func peak(_ render: OfflineRender, periods: Int) throws -> Float {
    let file = temporaryFile("hostile.wav")
    defer { try? FileManager.default.removeItem(atPath: file) }
    let wav = try WAVFileOutput(path: file, format: render.format)
    render.run(frames: 128 * periods, into: wav)
    wav.close()
    let data = try Data(contentsOf: URL(fileURLWithPath: file)).dropFirst(44)
    return data.withUnsafeBytes { bytes in
      bytes.bindMemory(to: Int16.self).map { abs(Float($0) / 32_768) }.max() ?? 0
    }
  }

  /// What a plugin that cannot load says is the line the loader says in this process.
  @Test func aBrokenPluginIsRefusedWithTheLoadersLine() throws {
    let file = try BuiltPlugins.fixture("magic")
    do {
      _ = try pluginApp(file, id: "dev.patchbay.fixture", isolated: true)
      Issue.record("the plugin should be refused")
    } catch let error as ConfigErrors {
      let line = error.errors[0].description
      #expect(line.contains("\(file): wrong magic 0x"), "\(line)")
      #expect(!line.contains("isolated"))
    }
  }

  /// An entry that never returns is named after `call-seconds` (at least 5 s) of the
  /// process's own CPU time, not of the wall clock: on busy cores a start that is only slow
  /// goes on (a loaded run once saw one take past 30 s).
  @Test func anEntryThatSpinsIsNamedByItsCPUTime() throws {
    let file = try BuiltPlugins.fixture("entryspins")
    do {
      _ = try pluginApp(
        file, id: "dev.patchbay.fixture", tables: "[limits]\ncall-seconds = 1", isolated: true)
      Issue.record("the plugin should be refused")
    } catch let error as ConfigErrors {
      let line = error.errors[0].description
      // 5 s of CPU, unless the wall-clock backstop (120 s) came first on starved cores.
      #expect(
        line.contains("could not run isolated: its process did not answer after ")
          && line.contains(" s of its CPU time"), "\(line)")
    }
  }

  @Test func isolatingAPluginTheConfigDoesNotLoadIsAnError() {
    do {
      _ = try AppConfig(
        parsing: AppConfig.oneFeature(
          "dev.patchbay.counter", of: "Counter", plugins: ["isolate = [\"Synth\"]"]),
        file: "isolate.toml")
      Issue.record("the config should be refused")
    } catch {
      #expect(
        error.errors.map(\.description) == [
          "isolate.toml:5: plugins.isolate: isolates 'Synth', which [plugins].load does not "
            + "name; write it as load does, or \"all\"."
        ])
    }
  }
}

/// Log lines from any thread.
final class LogLines: @unchecked Sendable {
  private let lock = NSLock()
  private var stored: [String] = []
  func append(_ line: String) { self.lock.withLock { self.stored.append(line) } }
  var lines: [String] { self.lock.withLock { self.stored } }
  func contains(_ text: String) -> Bool { self.lines.contains { $0.contains(text) } }

  /// Waits until a line contains `text` (the reaper logs from its own thread). The bound only
  /// stops a hang: the tests assert what was logged, never how soon.
  func wait(for text: String) {
    let deadline = ContinuousClock.now + .seconds(300)
    while !self.contains(text), ContinuousClock.now < deadline { usleep(10_000) }
  }
}
