import ArgumentParser
import Foundation
import PatchbayConfig
import PatchbayHost
import PatchbayScript

/// `patchbay replay FILE`: reproduce a recorded run.
struct Replay: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Replay a recording made with `patchbay run --record FILE`.",
    discussion: """
      Loads the recording's config and plugins, applies every recorded action and navigation \
      in order (effects do not run again: their recorded actions are applied instead), and \
      prints the final state hash. Exits 1 when it differs from the recorded one.

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

  @OptionGroup var search: PluginSearchOptions
  @OptionGroup var isolation: IsolateOption

  func run() async throws {
    do {
      let recording = try Recording(file: self.file)
      let config = try AppConfig(contentsOf: recording.config)
      let loader = try self.search.loader(for: config, isolating: self.isolation)
      let registry = try config.loadPlugins(with: loader)
      let app = try AppRuntime(config: config, registry: registry, loader: loader, replaying: true)
      if self.printChanges {
        app.tracksStateChanges = true
        app.onChange { Terminal.out(ChangeLine.text($0)) }
      }
      try await recording.replay(into: app)
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
