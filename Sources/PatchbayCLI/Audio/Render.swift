import ArgumentParser
import Foundation
import PatchbayAudio
import PatchbayConfig
import PatchbayHost
import PatchbayLoader
import PatchbayMIDI
import PatchbayScript
import PatchbaySound

/// `patchbay render CONFIG --out FILE`: the app's sound, rendered offline to a WAV file.
struct Render: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Render an app's sound offline to a WAV file, on a sample clock.",
    discussion: """
      Runs the app against a sample counter instead of the wall clock: every MIDI event of \
      --midi smf:PATH plays at its exact frame (round(seconds × rate)), listening features hear \
      it as actions, processors render as fast as the CPU allows, and the same inputs give a \
      byte-identical file. --script runs its commands first (the run script language, e.g. \
      `send metronome start`). The file is 16-bit PCM.

      Example:
        patchbay render host-config/studio.toml --midi smf:host-config/songs/demo.mid \\
          --out demo.wav
      """
  )

  @Argument(help: "The app config.")
  var config: String

  @Option(help: "Where to write the WAV file.")
  var out: String

  @Option(help: "MIDI to play: smf:PATH (a Standard MIDI File).")
  var midi: String?

  @Option(help: "Commands to run before rendering (as patchbay run --script takes them).")
  var script: String?

  @Option(help: "Seconds to render (default: the song and 2 s more, or 10 s).")
  var seconds: Double?

  @Option(help: "Frames per second.")
  var rate = 48_000

  @Option(help: "Frames per period.")
  var period = 128

  @Option(help: "Channels.")
  var channels = 2

  @OptionGroup var search: PluginSearchOptions

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
      CrashReports.watch(
        config.limits, periodSeconds: Double(format.periodFrames) / Double(format.sampleRate))
      let loader = self.search.loader(for: config)
      app = try AppRuntime(
        config: config, registry: try config.loadPlugins(with: loader), loader: loader)
      render = try OfflineRender(app: app, format: format)
      if let midi = self.midi {
        let song = try StandardMIDIFile(contentsOf: String(midi.dropFirst(4)))
        schedule = OfflineRender.schedule(song, sampleRate: self.rate)
      }
    } catch {
      throw CommandFailure("\(error)")
    }
    app.onLog { feature, level, message in
      Terminal.error("\(feature): \(level.rawValue): \(message)")
    }
    if let script = self.script {
      guard let text = try? String(contentsOfFile: script, encoding: .utf8) else {
        throw CommandFailure("\(script): cannot read the script.")
      }
      let outcome = await ScriptRunner(app: app, name: script) { Terminal.out($0) }.run(text)
      guard outcome.exitCode == 0 else { throw ExitCode(outcome.exitCode) }
    }
    let songEnd = schedule.last.map { Double($0.frame) / Double(self.rate) + 2 }
    let seconds = self.seconds ?? songEnd ?? 10
    let output: WAVFileOutput
    do {
      output = try WAVFileOutput(path: self.out, format: format)
    } catch {
      throw CommandFailure("\(error)")
    }
    let clock = ContinuousClock()
    let started = clock.now
    let report = render.run(
      frames: Int((seconds * Double(self.rate)).rounded()), midi: schedule, into: output)
    output.close()
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
    if render.graph.droppedEvents > 0 {
      Terminal.error(
        "warning: \(render.graph.droppedEvents) processor events were dropped (a processor sent more than it declared)."
      )
    }
  }

  /// `-6.0 dBFS`, `+60.0 dBFS`; `-inf dBFS` for silence.
  static func decibels(_ peak: Float) -> String {
    guard peak > 0 else { return "-inf dBFS" }
    let value = 20 * log10(Double(peak))
    return (value > 0.05 ? "+" : "") + String(format: "%.1f", value) + " dBFS"
  }
}
