import ArgumentParser
import Foundation
import PatchbayAudioGraph
import PatchbayConfig
import PatchbayDevTools
import PatchbayEncoding
import PatchbayHost
import PatchbayJACK
import PatchbayLoader
import PatchbayRebuild
import PatchbayScript
import PatchbayWatch

/// `patchbay run [CONFIG]`: run the composed app.
struct Run: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Run a composed app: interactively on a terminal, or from a script.",
    discussion: """
      On a terminal: a full-screen view of the current screen, the navigation stack as a \
      breadcrumb, and key hints. ↑/↓/⏎ send up/down/open when the screen has them, 1–9 send its \
      actions without fields, b goes back, : takes a command (below), q or Ctrl-C quits.

      Otherwise it reads commands from --script FILE, or from standard input:

      \(ScriptLanguage.helpText)

      The first failing command stops the run; its error names the line. \
      Exit codes: 0 success, 1 a command failed, 2 usage error (also a malformed script line).

      --watch swaps a feature when its plugin file is rebuilt: edit, `swift build --product \
      Counter` in another terminal, and the new code runs with the old state. --rebuild also \
      runs that build when a plugin's source file is saved (make dev).

      Example:
        printf 'send counter increment\\nstate counter\\n' \\
          | patchbay run host-config/app.toml
      """
  )

  @Argument(help: "The app config.")
  var config: String = "host-config/app.toml"

  @Option(help: "Run the commands in this file.")
  var script: String?

  @Option(help: "Start at this route (a deep link such as /echo).")
  var route: String?

  @Flag(help: "Print each action with its source, and each navigation change, as it happens.")
  var printChanges = false

  @Option(help: "Record every action and navigation to this file, as JSON lines (see replay).")
  var record: String?

  @Flag(help: "Swap a feature when its plugin file is rebuilt (once the new file is whole).")
  var watch = false

  @Flag(
    help: """
      With --watch (implied): rebuild a plugin when one of its source files is saved (swift \
      build --product NAME in the package that built it), so the edit runs with the state kept.
      """)
  var rebuild = false

  /// Whether plugin files are watched.
  var watches: Bool { self.watch || self.rebuild }

  @Option(
    help: """
      Where the app's sound goes (overrides [audio] device): auto, null (paced, silent), none, \
      default, hw:0, file:out.wav, alsa:NAME; or jack, jack:SERVER (a JACK client).
      """)
  var audio: String?

  @Option(
    help: """
      Where MIDI comes from (overrides [midi] input): none, seq, hw:1,0,0, fifo:PATH, \
      file:PATH, smf:PATH, stdin.
      """)
  var midi: String?

  @OptionGroup var search: PluginSearchOptions
  @OptionGroup var isolation: IsolateOption
  @OptionGroup var devtoolsOptions: DevToolsOptions

  /// With --rebuild, a started ``PluginRebuilder`` for the plugins the app loaded.
  func rebuilder(for app: AppRuntime, report: @escaping @Sendable (String) -> Void)
    -> PluginRebuilder?
  {
    guard self.rebuild else { return nil }
    let rebuilder = PluginRebuilder(
      plugins: app.registry.currentPlugins.map(\.path), report: report,
      failed: { app.refuseSwap(because: $0) })
    rebuilder.start()
    return rebuilder
  }

  func run() async throws {
    let app: AppRuntime
    let replica: @Sendable () throws(AppError) -> AppRuntime
    do {
      let config = try AppConfig(contentsOf: self.config)
      let format = config.sound.format
      // From the first plugin call on, none may hang silently.
      CrashReports.watch(
        config.limits, periodSeconds: Double(format.periodFrames) / Double(format.sampleRate))
      let loader = try self.search.loader(for: config, isolating: self.isolation)
      let registry = try config.loadPlugins(with: loader)
      for notice in registry.notices { Terminal.error(notice) }
      app = try AppRuntime(config: config, registry: registry, loader: loader)
      // DevTools' time travel replays the run into an app of its own, from the same plugins.
      replica = { () throws(AppError) in
        try AppRuntime(config: config, registry: registry, loader: loader, replaying: true)
      }
      if let route = self.route { try app.follow(route: route) }
    } catch let usage as ValidationError {
      throw usage
    } catch {
      throw CommandFailure("\(error)")
    }
    // Kept state ([[feature]] persist) is on disk when the run ends, however it ends.
    defer { app.flushKeptState() }
    let recorder = try RecordedRun.start(self.record, config: self.config, app: app)
    let printChanges = self.printChanges
    app.tracksStateChanges = printChanges
    // On a terminal, the UI shows the changes in its message log (`m`); else they are printed.
    let onTerminal = self.script == nil && isatty(STDIN_FILENO) != 0
    let onChange: @Sendable (AppChange) -> Void = { [recorder] change in
      if printChanges, !onTerminal { Terminal.out(ChangeLine.text(change)) }
      recorder?.record(change)
    }
    app.onChange(onChange)
    let devtools = try await self.startDevTools(app, replica: replica)
    // After the change handler: MIDI from the first message on is printed and recorded.
    let live = try self.startSound(app)
    defer {
      live?.stop()
      if let jack = live?.jack { Terminal.error("audio: JACK: \(jack.summary)") }
    }
    if let live { await devtools?.attach(live) }

    let name: String
    let text: String
    if let script = self.script {
      name = script
      guard let contents = try? String(contentsOfFile: script, encoding: .utf8) else {
        throw CommandFailure("\(script): cannot read the script: \(UnreadableFile.reason(script)).")
      }
      text = contents
    } else if isatty(STDIN_FILENO) == 0 {
      name = "<stdin>"
      text = String(decoding: FileHandle.standardInput.readDataToEndOfFile(), as: UTF8.self)
    } else {
      let session = try TerminalUI(
        app: app, title: app.config.name, meter: live?.graph.meter, printsChanges: printChanges)
      // The terminal UI takes the screen: the URL is in its messages too (`m`).
      if let url = await devtools?.url { session.noteSink("devtools: \(url.absoluteString)") }
      let watcher = self.watches ? PluginWatcher(app: app, report: session.noteSink) : nil
      watcher?.start()
      let rebuilder = self.rebuilder(for: app, report: session.noteSink)
      await session.run()
      rebuilder?.stop()
      watcher?.stop()
      await devtools?.stop()
      return
    }
    // A script's plugins log to stderr, each line naming its feature.
    app.onLog { feature, level, message in
      Terminal.error("\(feature): \(level.rawValue): \(message)")
    }
    let watcher =
      self.watches
      ? PluginWatcher(app: app) { Terminal.error("watch: \($0)") }
      : nil
    watcher?.start()
    defer { watcher?.stop() }
    let rebuilder = self.rebuilder(for: app) {
      Terminal.error($0)
    }
    defer { rebuilder?.stop() }

    let outcome = await ScriptRunner(app: app, name: name) { Terminal.out($0) }.run(text)
    if let devtools {
      Terminal.error("devtools: the script has ended; the app runs on until Ctrl-C.")
      await DevToolsOptions.waitForInterrupt()
      await devtools.stop()
    }
    try await RecordedRun.finish(recorder, file: self.record, app: app)
    switch outcome {
    case .finished:
      return
    case .failed(let message):
      Terminal.error("Error: \(message)")
      throw ExitCode(1)
    case .invalid(let message):
      Terminal.error("Error: \(message)")
      throw ExitCode(2)
    }
  }
}

/// How `--print-changes` shows a change.
enum ChangeLine {
  static func text(_ change: AppChange) -> String {
    switch change {
    case .action(let path, let text, let source, let diff):
      "[\(source.rawValue)] \(path) ← \(text)"
        + (diff.map {
          $0.isEmpty
            ? "\n    (no state change)"
            : "\n" + $0.split(separator: "\n").map { "    \($0)" }.joined(separator: "\n")
        } ?? "")
    case .navigation(let action, let state, _):
      "[navigation] \(action) → stack [\(state.stack.map(\.description).joined(separator: ", "))]"
        + (state.presented.map { ", presented \($0)" } ?? "")
    case .swap(let report):
      "[swap] \(report)"
    case .collection(let path, let id, let added, _):
      "[collection] \(path) \(added ? "+" : "-") \(id)"
    case .failure(let error):
      "[failure] \(error)"
    }
  }
}

extension Run {
  /// With --devtools: the feed attached to the app and the server started; nil without.
  func startDevTools(
    _ app: AppRuntime, replica: @escaping @Sendable () throws(AppError) -> AppRuntime
  ) async throws -> DevTools? {
    guard self.devtoolsOptions.enabled else { return nil }
    let feed = DevToolsFeed()
    feed.attach(to: app)
    return try await self.devtoolsOptions.start(
      app: app, feed: feed, session: .live(config: self.config), replica: replica)
  }

  /// Plays the app's processors and opens its MIDI input, when it has either: the config's
  /// `[audio]` and `[midi]`, overridden by --audio and --midi. Notes go to stderr.
  /// `2026-11-26`, in local time.
  static func today() -> String {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.dateFormat = "yyyy-MM-dd"
    return formatter.string(from: Date())
  }

  func startSound(_ app: AppRuntime) throws -> LiveSession? {
    let settings: SoundSettings
    do {
      settings = try app.config.sound.overriding(device: self.audio, midiInput: self.midi)
    } catch {
      throw ValidationError("--midi: \(error)")
    }
    // Features read the MIDI input's status and the date as the host publishes them
    // ("patchbay.shared/1"): the studio counts today's practice.
    app.publish("host.midi", .record([.init("input", .string(settings.midi.description))]))
    app.publish("host.date", .record([.init("day", .string(Self.today()))]))
    let registry = app.registry
    let makesSound = registry.featureIDs.contains { registry[$0]?.hasProcessor == true }
    guard (makesSound && settings.playsAudio) || settings.midi != .none else { return nil }
    let live: LiveSession
    do {
      live = try LiveSession(app: app, settings: settings)
    } catch {
      throw CommandFailure("\(error)")
    }
    if let note = live.deviceNote {
      Terminal.error("audio: \(note)")
    }
    if let jack = live.jack {
      let connected = live.playbackConnections
      Terminal.error(
        connected.isEmpty
          ? "audio: ports \(jack.portNames.joined(separator: ", ")) (connect them: jack_connect "
            + "\(jack.portNames[0]) system:playback_1)"
          : "audio: connected \(connected.joined(separator: ", "))")
      if let midi = jack.midiInput {
        Terminal.error(
          "midi: JACK port \(midi.portName) (patch a keyboard into it: jack_connect "
            + "KEYBOARD:midi_out \(midi.portName))")
      }
    }
    live.start()
    return live
  }
}
