import ArgumentParser
import Foundation
import PatchbayConfig
import PatchbayDevTools
import PatchbayHost
import PatchbayScript

/// `patchbay devtools RECORDING`: DevTools for a recorded run, for time travel after the fact.
struct DevToolsCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "devtools",
    abstract: "Serve DevTools for a recording made with `patchbay run --record FILE`.",
    discussion: """
      Replays the recording (as `patchbay replay` does) and serves DevTools for it: the app's \
      tree, every step on the timeline with what it changed, and the state after any step. \
      Prints the page's URL, then serves until Ctrl-C. The page can read, not act.

      Example:
        patchbay devtools run.jsonl
      """)

  @Argument(help: "The recording (JSON lines).")
  var file: String

  @Option(help: "Listen here (127.0.0.1:8765, :8765) instead of loopback on a free port.")
  var address: String?

  @Flag(help: "Listen on an address other machines can reach.")
  var allowRemote = false

  @OptionGroup var search: PluginSearchOptions
  @OptionGroup var isolation: IsolateOption

  func run() async throws {
    let options = try DevToolsOptions.parse(
      ["--devtools"] + (self.address.map { ["--devtools-address", $0] } ?? [])
        + (self.allowRemote ? ["--devtools-allow-remote"] : []))
    let app: AppRuntime
    let feed = DevToolsFeed()
    let recording: Recording
    let replica: @Sendable () throws(AppError) -> AppRuntime
    do {
      recording = try Recording(file: self.file)
      let config = try AppConfig(contentsOf: recording.config)
      let loader = try self.search.loader(for: config, isolating: self.isolation)
      let registry = try config.loadPlugins(with: loader)
      replica = { () throws(AppError) in
        try AppRuntime(config: config, registry: registry, loader: loader, replaying: true)
      }
      app = try replica()
      feed.attach(to: app)
      try await recording.replay(into: app)
      _ = await app.settle()
      await feed.flush()
    } catch {
      throw CommandFailure("\(error)")
    }
    let devtools = try await options.start(
      app: app, feed: feed, session: .recording(recording), replica: replica)
    Terminal.error(
      "devtools: \(recording.steps.count) steps replayed from \(self.file); serving until Ctrl-C.")
    await DevToolsOptions.waitForInterrupt()
    await devtools.stop()
  }
}
