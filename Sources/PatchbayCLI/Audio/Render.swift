import ArgumentParser
import Foundation
import PatchbayAudioDevice
import PatchbayAudioGraph
import PatchbayConfig
import PatchbayEncoding
import PatchbayHost
import PatchbayLoader
import PatchbayMIDI
import PatchbayPlot
import PatchbayScript

/// `patchbay render CONFIG --out FILE`: the app's sound, rendered offline to a WAV file.
struct Render: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Render an app's sound offline to a WAV file, on a sample clock.",
    discussion: """
      Runs the app against a sample counter instead of the wall clock: every MIDI event of \
      --midi smf:PATH plays at its exact frame (round(seconds × rate)), listening features hear \
      it as actions, processors render as fast as the CPU allows, and the same inputs give a \
      byte-identical file. --script runs its commands on that clock (the run script language, e.g. \
      `send metronome start`). The file is 16-bit PCM. --plot draws the render's waveform, its \
      level over time and its spectrum into a PNG.

      Example:
        patchbay render host-config/studio.toml --midi smf:host-config/songs/demo.mid \\
          --out demo.wav --plot demo.png
      """
  )

  @Argument(help: "The app config.")
  var config: String

  @Option(help: "Where to write the WAV file.")
  var out: String

  @Option(help: "MIDI to play: smf:PATH (a Standard MIDI File).")
  var midi: String?

  @Option(
    help: ArgumentHelp(
      "Commands to run on the sample clock (as patchbay run --script takes them): each "
        + "`wait MS` renders MS of sound first."))
  var script: String?

  @Option(
    name: .customLong("solo"),
    help: ArgumentHelp(
      "Hear only this node's sound (repeatable): the other processors run as always, unheard. "
        + "A stem: --solo drums.", valueName: "node"))
  var solo: [String] = []

  @Option(
    help: ArgumentHelp(
      "Record every change to this file (JSON lines) and print the final state hash, which "
        + "`patchbay replay` reproduces."))
  var record: String?

  @Option(help: ArgumentHelp("Also draw it in a PNG: waveform, level, spectrum.", valueName: "png"))
  var plot: String?

  @Option(help: "Seconds to render (default: the song and 2 s more, or 10 s).")
  var seconds: Double?

  @Option(help: "Frames per second.")
  var rate = 48_000

  @Option(help: "Frames per period.")
  var period = 128

  @Option(help: "Channels.")
  var channels = 2

  @OptionGroup var search: PluginSearchOptions
  @OptionGroup var isolation: IsolateOption

  func validate() throws {
    guard (8_000...384_000).contains(self.rate) else {
      throw ValidationError("--rate \(self.rate) is out of range: use 8000 to 384000.")
    }
    guard (16...8_192).contains(self.period) else {
      throw ValidationError("--period \(self.period) is out of range: use 16 to 8192 frames.")
    }
    guard (1...8).contains(self.channels) else {
      throw ValidationError("--channels \(self.channels) is out of range: use 1 to 8.")
    }
    if let seconds = self.seconds, !(seconds > 0 && seconds <= 3_600) {
      throw ValidationError("--seconds \(seconds) is out of range: use more than 0, up to 3600.")
    }
    if let midi = self.midi, !midi.hasPrefix("smf:") {
      throw ValidationError(
        "--midi \(midi): render plays MIDI at exact frames from a file; give smf:PATH (live "
          + "inputs are for patchbay run).")
    }
  }

  func run() async throws {
    let format = AudioFormat(
      sampleRate: self.rate, channels: self.channels, periodFrames: self.period)
    let app: AppRuntime
    let render: OfflineRender
    var schedule: [(frame: UInt64, event: MIDIEvent)] = []
    do {
      let config = try AppConfig(contentsOf: self.config)
      // Offline, a period has no deadline: a busy machine may take its time over one. A call
      // (a processor's included) is a hang only after call-seconds.
      CrashReports.watch(callSeconds: config.limits.callSeconds)
      let loader = try self.search.loader(for: config, isolating: self.isolation)
      let registry = try config.loadPlugins(with: loader)
      for notice in registry.notices { Terminal.error(notice) }
      app = try AppRuntime(config: config, registry: registry, loader: loader)
      if let unknown = self.solo.first(where: { config.node($0) == nil }) {
        throw CommandFailure(
          "--solo \(unknown): no such node in \(self.config). Nodes: "
            + config.nodes.map(\.key).joined(separator: ", ") + ".")
      }
      render = try OfflineRender(app: app, format: format, solo: Set(self.solo))
      if let midi = self.midi {
        let song = try StandardMIDIFile(contentsOf: String(midi.dropFirst(4)))
        schedule = OfflineRender.schedule(song, sampleRate: self.rate)
      }
    } catch let usage as ValidationError {
      throw usage
    } catch {
      throw CommandFailure("\(error)")
    }
    app.onLog { feature, level, message in
      Terminal.error("\(feature): \(level.rawValue): \(message)")
    }
    let output: WAVFileOutput
    do {
      output = try WAVFileOutput(path: self.out, format: format)
    } catch {
      throw CommandFailure("\(error)")
    }
    let recorder = try RecordedRun.start(self.record, config: self.config, app: app)
    if let recorder { app.onChange { change in recorder.record(change) } }
    // Recorded: what the features are told of the input is part of the run.
    app.publish("host.midi", .record([.init("input", .string(self.midi ?? "none"))]))
    let clock = ContinuousClock()
    let started = clock.now
    // A script runs on the sample clock: its commands land between periods, and each `wait MS`
    // renders MS of sound (with the song's MIDI) first.
    let rate = self.rate
    let box = RenderBox(render: render, output: output, schedule: schedule)
    if let script = self.script {
      guard let text = try? String(contentsOfFile: script, encoding: .utf8) else {
        throw CommandFailure("\(script): cannot read the script: \(UnreadableFile.reason(script)).")
      }
      let runner = ScriptRunner(
        app: app, name: script,
        wait: { milliseconds in box.render(frames: milliseconds * rate / 1_000) }
      ) { Terminal.out($0) }
      let outcome = await runner.run(text)
      guard outcome.exitCode == 0 else { throw ExitCode(outcome.exitCode) }
    }
    let songEnd = schedule.last.map { Double($0.frame) / Double(self.rate) + 2 }
    let seconds = self.seconds ?? songEnd ?? 10
    let total = Int((seconds * Double(self.rate)).rounded())
    box.render(frames: max(0, total - Int(render.position)))
    output.close()
    let report = box.report
    let took = clock.now - started
    let wall = Double(took.components.seconds) + Double(took.components.attoseconds) * 1e-18
    let audio = Double(report.frames) / Double(self.rate)
    Terminal.out(
      "\(self.out): \(String(format: "%.2f", audio)) s, \(format), \(report.periods) periods, "
        + "\(report.midiEvents) MIDI events; rendered in \(String(format: "%.3f", wall)) s "
        + "(\(String(format: "%.0f", audio / max(wall, 1e-9)))× real time)")
    let graph = render.graph
    Terminal.out(
      "peak \(Self.decibels(graph.peak)) before clipping; \(graph.clippedSamples) samples clipped")
    if graph.clippedSamples > 0 {
      let total = report.frames * self.channels
      Terminal.error(
        "warning: \(graph.clippedSamples) of \(total) samples were beyond full scale and clipped "
          + "(\(String(format: "%.2f", 100 * Double(graph.clippedSamples) / Double(max(total, 1)))) %); "
          + "the mix peaked at \(Self.decibels(graph.peak)). Lower the levels of what plays.")
    }
    if let plot = self.plot {
      do {
        try PNGFile.write(SoundPlot(try WAVSamples(contentsOf: self.out)).draw(), to: plot)
      } catch {
        throw CommandFailure("--plot: \(error)")
      }
      Terminal.out("\(plot): waveform, level and spectrum, \(SoundPlot.width)×\(SoundPlot.height)")
    }
    try await RecordedRun.finish(recorder, file: self.record, app: app)
    if render.graph.droppedEvents > 0 {
      Terminal.error(
        "warning: \(render.graph.droppedEvents) processor events were dropped (a processor sent more than it declared)."
      )
    }
  }

  /// The render as a script's `wait` drives it, and what it rendered so far.
  final class RenderBox: @unchecked Sendable {
    let render: OfflineRender
    let output: WAVFileOutput
    var schedule: [(frame: UInt64, event: MIDIEvent)]
    var report = OfflineRender.Report()

    init(
      render: OfflineRender, output: WAVFileOutput, schedule: [(frame: UInt64, event: MIDIEvent)]
    ) {
      (self.render, self.output, self.schedule) = (render, output, schedule)
    }

    func render(frames: Int) {
      guard frames > 0 else { return }
      // Whole periods: a command lands at the period boundary at or after its time.
      let period = self.render.format.periodFrames
      let step = self.render.run(
        frames: (frames + period - 1) / period * period, midi: self.schedule, into: self.output)
      self.schedule = []
      self.report.periods += step.periods
      self.report.frames += step.frames
      self.report.midiEvents += step.midiEvents
    }
  }

  /// `-6.0 dBFS`, `+60.0 dBFS`; `-inf dBFS` for silence.
  static func decibels(_ peak: Float) -> String {
    guard peak > 0 else { return "-inf dBFS" }
    let value = 20 * log10(Double(peak))
    return (value > 0.05 ? "+" : "") + String(format: "%.1f", value) + " dBFS"
  }
}
