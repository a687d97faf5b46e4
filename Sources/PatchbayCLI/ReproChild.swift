import ArgumentParser
import Foundation
import PatchbayAudioDevice
import PatchbayAudioGraph
import PatchbayConfig
import PatchbayHost
import PatchbayLoader
import PatchbayScript

/// `patchbay repro-child CONFIG`: what `patchbay repro` replays its candidates in. It loads the
/// config's plugins once, then replays each recording named on a line of stdin into a new app
/// (a period of sound after each step, then the periods that trace a NaN), and answers on
/// stdout: a `failure LINE` for each failure the app reports, then `end`. A crash or a hang
/// ends it with the host's report on stderr (exit 3), and `repro` starts another.
///
/// Hidden: a protocol between `patchbay repro` and itself.
struct ReproChild: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "repro-child",
    abstract: "Replays recordings named on stdin for `patchbay repro`.",
    shouldDisplay: false)

  @Argument var config: String

  @Option var callSeconds: Int?

  @OptionGroup var search: PluginSearchOptions
  @OptionGroup var isolation: IsolateOption

  func run() async throws {
    var config: AppConfig
    let registry: FeatureRegistry
    let loader: PluginLoader
    do {
      config = try AppConfig(contentsOf: self.config)
      // Its candidates need no flight file: the recording is what repro shrinks.
      config.limits.flightActions = 0
      CrashReports.watch(callSeconds: self.callSeconds ?? config.limits.callSeconds)
      loader = try self.search.loader(for: config, isolating: self.isolation)
      registry = try config.loadPlugins(with: loader)
    } catch {
      throw CommandFailure("\(error)")
    }
    while let file = readLine() {
      await Self.replay(file, config: config, registry: registry, loader: loader)
      Self.say("end")
    }
  }

  /// Replays the recording `file` into a new app, saying each failure.
  private static func replay(
    _ file: String, config: AppConfig, registry: FeatureRegistry, loader: PluginLoader
  ) async {
    do {
      let recording = try Recording(file: file)
      let app = try AppRuntime(config: config, registry: registry, loader: loader, replaying: true)
      app.onFailure { error in
        Self.say("failure patchbay: \(Replay.feature(of: error, in: config))\(error)")
      }
      let render = try OfflineRender(app: app, format: AudioFormat(periodFrames: 32))
      for (line, step) in recording.steps {
        try await recording.apply(step, to: app, at: line)
        render.play(periods: 1)
      }
      render.play(periods: OfflineRender.periodsToTraceNaN)
      app.onFailure(nil)
    } catch {
      Self.say("stopped \(error)")
    }
  }

  /// One line on stdout, at once (repro waits for it).
  private static func say(_ line: String) {
    FileHandle.standardOutput.write(
      Data((line.replacingOccurrences(of: "\n", with: " ") + "\n").utf8))
  }
}
