import Foundation
import PatchbayAudioDevice
import PatchbayAudioGraph
import PatchbayConfig
import PatchbayHost
import PatchbayLoader
import PatchbayScript
import Synchronization

/// An app of built plugins, driven as a test drives it: the config's plugins loaded for real
/// (`dlopen`, a Swift or a C plugin alike), each step followed by a period of their sound
/// (offline), and the first failure thrown. What `patchbay repro` writes its tests with.
///
/// ```swift
/// @Test func theLockNoLongerCrashes() async {
///   // A crash or a hang ends the process: run it in one of its own.
///   await #expect(processExitsWith: .success) {
///     let app = try PluginHarness(config: "/home/me/lock/app.toml")
///     try await app.send("lock", "dial(3)")
///     try await app.run("push results")   // any script line (`patchbay run --script`)
///   }
/// }
/// ```
///
/// A refusal, or a processor that writes NaN, throws ``PluginHarnessFailure``; a crash or a
/// call that does not return within `[limits] call-seconds` ends the process with exit code 3
/// and the host's one-line report on stderr, as `patchbay run` does.
public final class PluginHarness {
  public let app: AppRuntime
  private let render: OfflineRender
  /// What the app reported failing, in order (its changes come on its own queue).
  private let failures = Failures()

  private final class Failures: Sendable {
    let list = Mutex<[AppError]>([])
  }

  /// Loads `config`'s plugins and starts its app. `callSeconds` overrides
  /// `[limits] call-seconds`, how long a call may take before it counts as a hang.
  public init(config path: String, callSeconds: Int? = nil) throws {
    let config = try AppConfig(contentsOf: path)
    CrashReports.install()
    CrashReports.watch(callSeconds: callSeconds ?? config.limits.callSeconds)
    let loader = config.loader()
    self.app = try AppRuntime(config: config, registry: try config.loadPlugins(with: loader))
    let format = AudioFormat(sampleRate: 48_000, periodFrames: 32)
    self.render = try OfflineRender(app: self.app, format: format)
    self.app.onFailure { [failures] error in failures.list.withLock { $0.append(error) } }
  }

  /// Sends `action` (its text, as `patchbay run`'s `send` takes it) to the instance at `path`,
  /// waits for what it started to settle, and plays a period.
  public func send(_ path: String, _ action: String) async throws(PluginHarnessFailure) {
    do {
      try self.app.send(path, action)
    } catch {
      throw PluginHarnessFailure(description: error.description)
    }
    try await self.settle()
  }

  /// Runs `script`'s lines (`push NODE`, `swap FEATURE PLUGIN`, …), each as `send` does.
  public func run(_ script: String) async throws(PluginHarnessFailure) {
    let runner = ScriptRunner(app: self.app, name: "script") { _ in }
    for (index, line) in script.split(separator: "\n").enumerated() {
      if let outcome = await runner.run(line: String(line), number: index + 1),
        outcome != .finished
      {
        throw PluginHarnessFailure(description: "line \(index + 1): \(outcome)")
      }
      try await self.settle()
    }
  }

  private func settle() async throws(PluginHarnessFailure) {
    _ = await self.app.settle()
    self.render.play(periods: OfflineRender.periodsToTraceNaN)
    if let failure = self.failures.list.withLock({ $0.first }) {
      throw PluginHarnessFailure(description: failure.description)
    }
  }
}

/// What failed: a refusal, a processor's NaN; the host's words.
public struct PluginHarnessFailure: Error, CustomStringConvertible, Sendable {
  public let description: String
}
