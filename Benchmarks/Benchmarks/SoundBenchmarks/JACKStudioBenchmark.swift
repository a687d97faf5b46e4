import Benchmark
import BenchmarkSupport
import Foundation
import PatchbayAudioGraph
import PatchbayConfig
import PatchbayJACK

// The studio as a JACK client for a minute: 128-frame periods at 48 kHz on a private
// `jackd -d dummy` with realtime scheduling, everything playing, MIDI arriving, the other core
// busy. Beside it, at the same time, a bare C JACK client (Benchmarks/BareJACKClient, nothing
// of Patchbay in it) on a server of its own: what the machine does to any JACK client.
// Floors (issue 45): no xruns that the bare client's server does not also get, and the
// callback's lateness p99 beside the bare client's.
func jackStudioBenchmark() {
  let xruns = BenchmarkMetric.custom("xruns", useScalingFactor: false)
  let lateness = BenchmarkMetric.custom("lateness p99 (µs)", useScalingFactor: false)
  let bareXruns = BenchmarkMetric.custom("bare C client: xruns", useScalingFactor: false)
  let bareLateness = BenchmarkMetric.custom(
    "bare C client: lateness p99 (µs)", useScalingFactor: false)
  Benchmark(
    "studio: live through JACK (jackd -d dummy), 128 frames @ 48 kHz, 60 s, chords + drums + "
      + "clicks + MIDI, other core busy; beside it a bare C JACK client on its own server",
    configuration: .init(
      metrics: [xruns, lateness, bareXruns, bareLateness], warmupIterations: 0,
      maxDuration: .seconds(90), maxIterations: 1)
  ) { benchmark in
    let seconds = BenchmarkRun.workload(60, smoke: 1)
    let (studioServer, bareServer, realtime) = JACKPair.start()
    defer {
      studioServer.stop()
      bareServer.stop()
    }
    let app = studioApp()
    try? app.send("studio", "go(0)")
    try? app.send("practice", "play")
    try? app.send("studio/metronome", "start")
    let notes = NotesFIFO(name: "studio-jack", seconds: seconds, lowest: 60, velocity: 80)
    defer { notes.remove() }
    var settings = SoundSettings()
    settings.backend = .jack
    (settings.jackServer, settings.clientName) = (studioServer.name, "studio")
    settings.midi = .file(notes.path)
    let otherCore = OtherCore()
    otherCore.occupy()
    let live: LiveSession
    do {
      live = try LiveSession(app: app, settings: settings)
    } catch {
      fatalError("\(error)")
    }
    let bare = BareJACKClient(server: bareServer.name, seconds: seconds)
    live.start()
    _ = live.waitForMIDI(timeout: .seconds(seconds + 10))
    live.stop()
    let reference = bare.result()
    otherCore.release()
    let jack = live.jack!
    print(
      "studio: \(jack.statistics.periods) periods, \(jack.statistics.xruns) xruns, lateness "
        + "p50 \(jack.lateness.percentile(50)) µs, p99 \(jack.lateness.percentile(99)) µs, max "
        + "\(jack.lateness.maximum) µs, MIDI messages \(live.midiEvents); bare C client: "
        + reference.line + "; servers " + (realtime ? "realtime (-R -P 70)" : "not realtime")
        + ", the studio's process thread at priority \(jack.callbackThreadPriority ?? -1)")
    benchmark.measurement(xruns, jack.statistics.xruns)
    benchmark.measurement(lateness, jack.lateness.percentile(99))
    benchmark.measurement(bareXruns, reference.xruns)
    benchmark.measurement(bareLateness, reference.latenessP99)
  }
}

/// Two private servers at 128 frames: the studio's and the bare client's. Realtime when the
/// machine allows it (root, or an rtprio limit), else not, and says which.
enum JACKPair {
  static func start() -> (PrivateJACKServer, PrivateJACKServer, realtime: Bool) {
    for realtime in [true, false] {
      if let studio = try? PrivateJACKServer(frames: 128, rate: 48_000, realtime: realtime),
        let bare = try? PrivateJACKServer(frames: 128, rate: 48_000, realtime: realtime)
      {
        return (studio, bare, realtime)
      }
    }
    do {
      let server = try PrivateJACKServer(frames: 128)
      fatalError("the second JACK server did not start beside \(server.name)")
    } catch {
      fatalError("\(error)")
    }
  }
}

/// The bare C client (Benchmarks/BareJACKClient) in a process of its own — libjack talks to
/// one server per process — running for `seconds`.
struct BareJACKClient {
  struct Result {
    let line: String
    let xruns: Int
    let latenessP99: Int
  }

  private let process = Process()
  private let output = Pipe()

  init(server: String, seconds: Int) {
    let executable = Bundle.main.executableURL!.deletingLastPathComponent()
      .appendingPathComponent("BareJACKClient")
    guard FileManager.default.isExecutableFile(atPath: executable.path) else {
      fatalError(
        "\(executable.path) is missing: build it with swift build --package-path Benchmarks "
          + "--product BareJACKClient (-c release for make bench)")
    }
    self.process.executableURL = executable
    self.process.arguments = [server, "\(seconds)"]
    self.process.standardOutput = self.output
    do { try self.process.run() } catch { fatalError("BareJACKClient: \(error)") }
  }

  /// Waits for it to finish and reads its line.
  func result() -> Result {
    let data = self.output.fileHandleForReading.readDataToEndOfFile()
    self.process.waitUntilExit()
    let line = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    let words = line.split(separator: " ")
    func value(_ key: String) -> Int {
      guard let index = words.firstIndex(of: Substring(key)), index + 1 < words.count,
        let number = Int(words[index + 1])
      else { fatalError("BareJACKClient said \"\(line)\", with no \(key)") }
      return number
    }
    return Result(line: line, xruns: value("xruns"), latenessP99: value("lateness-p99-us"))
  }
}
