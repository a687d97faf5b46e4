import ArgumentParser
import Foundation
import PatchbayAudioDevice
import PatchbayAudioGraph
import PatchbayConfig
import PatchbayHost
import PatchbayLoader
import PatchbayScript

/// `patchbay replay FILE`: reproduce a recorded run.
struct Replay: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Replay a recording made with `patchbay run --record FILE`.",
    discussion: """
      Loads the recording's config and plugins, applies every recorded action and navigation \
      in order (effects do not run again: their recorded actions are applied instead), and \
      prints the final state hash. Exits 1 when it differs from the recorded one. A flight \
      file (the last actions every app keeps, named by a crash or hang report) replays too.

      Example:
        patchbay run host-config/app.toml --script host-config/demo.script \\
          --record run.jsonl
        patchbay replay run.jsonl
      """
  )

  @Argument(help: "The recording (JSON lines).")
  var file: String

  @Flag(help: "Print each replayed change.")
  var printChanges = false

  @Flag(help: "Print the final state as JSON.")
  var state = false

  @Flag(
    help:
      "Say each failure a plugin reports on stderr, the feature first, and play a period of sound after each step, so that a processor's NaN shows (what `patchbay repro` runs)."
  )
  var reportFailures = false

  @Option(
    help: ArgumentHelp(
      "How long a call may take before it counts as a hang (overrides [limits] call-seconds).",
      valueName: "seconds"))
  var callSeconds: Int?

  @OptionGroup var search: PluginSearchOptions
  @OptionGroup var isolation: IsolateOption

  func run() async throws {
    do {
      let recording = try Recording(file: self.file)
      let config = try AppConfig(contentsOf: recording.config)
      // A recording may end in the call that hung (a flight file's does): named, not waited on.
      CrashReports.watch(callSeconds: self.callSeconds ?? config.limits.callSeconds)
      let loader = try self.search.loader(for: config, isolating: self.isolation)
      let registry = try config.loadPlugins(with: loader)
      let app = try AppRuntime(config: config, registry: registry, loader: loader, replaying: true)
      app.tracksStateChanges = self.printChanges
      let (printing, reporting) = (self.printChanges, self.reportFailures)
      if printing { app.onChange { Terminal.out(ChangeLine.text($0)) } }
      if reporting {
        app.onFailure { Terminal.error("patchbay: \(Self.feature(of: $0, in: config))\($0)") }
      }
      // A processor's NaN shows only when it plays: each step is followed by a period,
      // rendered offline and heard by no one.
      let playing =
        try reporting ? OfflineRender(app: app, format: AudioFormat(periodFrames: 32)) : nil
      for (line, step) in recording.steps {
        try await recording.apply(step, to: app, at: line)
        playing?.play(periods: 1)
      }
      // A mix's NaN is traced to its processor in the periods after it.
      playing?.play(periods: OfflineRender.periodsToTraceNaN)
      _ = await app.settle()
      if self.state { Terminal.out(try app.stateValue().json(pretty: true)) }
      let hash = try app.stateHash()
      Terminal.out("state hash: \(hash)")
      if let stoppedBy = recording.stoppedBy {
        Terminal.out("the recorded run ended here, stopped by a plugin: \(stoppedBy)")
      }
      if let recorded = recording.stateHash, recorded != hash {
        throw CommandFailure("replay diverged: the recording ended with state hash \(recorded).")
      }
    } catch let failure as CommandFailure {
      throw failure
    } catch let usage as ValidationError {
      throw usage
    } catch {
      throw CommandFailure("\(error)")
    }
  }
}

extension Replay {
  /// `dev.patchbay.x: ` for a failure at an instance of that feature; empty otherwise.
  static func feature(of error: AppError, in config: AppConfig) -> String {
    guard case .failed(let path, _) = error.reason,
      let key = InstancePath(parsing: path)?.segments.last?.key, let node = config.node(key)
    else { return "" }
    return "\(node.featureID): "
  }
}
