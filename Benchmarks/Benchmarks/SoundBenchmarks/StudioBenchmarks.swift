import Benchmark
import BenchmarkSupport
import Foundation
import PatchbayAudioDevice
import PatchbayAudioGraph
import PatchbayConfig
import PatchbayDevTools
import PatchbayHost
import PatchbayMIDI
import References
import Synchronization

// The practice studio's floors: MIDI in → a reducer while the studio plays and
// 1,000 messages a second arrive, and a minute live with everything playing beside the bare
// C reference thread. host-config/studio.toml, its plugins from the root's build.

/// The studio app, its kept state in a folder of its own (every run starts fresh).
func studioApp() -> AppRuntime {
  let state = FileManager.default.temporaryDirectory.appendingPathComponent(
    "patchbay-bench-studio-\(getpid())-\(UUID().uuidString.prefix(6))")
  setenv("XDG_STATE_HOME", state.path, 1)
  do {
    let config = try AppConfig(
      contentsOf: repositoryRoot.appendingPathComponent("host-config/studio.toml").path)
    let loader = config.loader(extraSearchPaths: [pluginFolder])
    return try AppRuntime(
      config: config, registry: try config.loadPlugins(with: loader), loader: loader)
  } catch {
    fatalError("\(error) — \(BenchmarkRun.buildHint)")
  }
}

/// A thread that keeps the other core busy until `release`.
final class OtherCore: Sendable {
  private let busy = Atomic<Bool>(true)

  func occupy() {
    Thread.detachNewThread {
      var spin: UInt64 = 0
      while self.busy.load(ordering: .relaxed) { spin &+= 1 }
      blackHole(spin)
    }
  }

  func release() { self.busy.store(false, ordering: .relaxed) }
}

func studioBenchmarks() {
  // 1,000 note-ons a second for 5 s, to the MIDI Monitor (which names each note through
  // Theory) while the Metronome, the Drums and the Synth play on the paced null device.
  let messages = BenchmarkRun.workload(5_000, smoke: 50)
  Benchmark(
    "studio: MIDI in → the MIDI Monitor's reduce, 1,000 messages/s, the studio playing",
    configuration: .init(metrics: MIDILatency.metrics, warmupIterations: 0, maxIterations: 1)
  ) { benchmark in
    let app = studioApp()
    try? app.send("studio", "go(2)")
    try? app.send("studio/metronome", "start")
    MIDILatency.run(
      benchmark, app: app, messages: messages, every: 1_000_000, device: "null",
      listener: "the monitor"
    ) { $0.hasPrefix("monitor") }
  }

  // A minute live: the Practice screen's sequencer playing the Synth, the Drums and the
  // Metronome, MIDI arriving (a note every 125 ms), the other core busy; beside it, the bare C
  // SCHED_FIFO thread. 128-frame periods and a 4-period buffer: 10.7 ms of output latency.
  let underruns = BenchmarkMetric.custom("underruns", useScalingFactor: false)
  let lateness = BenchmarkMetric.custom("lateness p99 (µs)", useScalingFactor: false)
  let bareOver = BenchmarkMetric.custom(
    "bare C thread: stalls longer than the buffer", useScalingFactor: false)
  let latency = BenchmarkMetric.custom("output latency (µs)", useScalingFactor: false)
  // The same minute again with DevTools watching: a page attached, its sound tap on (the
  // audio thread copies the mix and measures each processor), the journal pump taking the
  // actions. Its floor: lateness p99 as without the page, judged against the row above and
  // the bare C thread of the same run.
  for page in [false, true] {
    Benchmark(
      "studio: live, paced null, 128 × 4 frames @ 48 kHz, 60 s, chords + drums + clicks + MIDI, "
        + "other core busy" + (page ? ", a DevTools page watching" : ""),
      configuration: .init(
        metrics: [underruns, lateness, bareOver, latency], warmupIterations: 0,
        maxDuration: .seconds(75), maxIterations: 1)
    ) { benchmark in
      let app = studioApp()
      let feed = DevToolsFeed()
      let devtools = DevTools(app: app, feed: feed, session: .live(config: "studio.toml")) {
        () throws(AppError) in studioApp()
      }
      if page {
        feed.attach(to: app)
        let stream = feed.subscribe()
        Task.detached { for await message in stream { blackHole(message) } }
      }
      try? app.send("studio", "go(0)")
      try? app.send("practice", "play")
      try? app.send("studio/metronome", "start")
      let seconds = BenchmarkRun.workload(60, smoke: 1)
      let notes = NotesFIFO(name: "studio-live", seconds: seconds, lowest: 60, velocity: 80)
      defer { notes.remove() }
      let otherCore = OtherCore()
      otherCore.occupy()
      var settings = SoundSettings()
      settings.device = "null"
      settings.midi = .file(notes.path)
      guard let live = try? LiveSession(app: app, settings: settings) else {
        fatalError("no device")
      }
      let watch = reference_stall_watch_start(format.periodNanoseconds)
      live.start()
      if page { await devtools.attach(live) }
      _ = live.waitForMIDI(timeout: .seconds(seconds + 10))
      live.stop()
      await devtools.stop()
      let bare = reference_stall_watch_stop(watch, 2 * format.periodNanoseconds / 1_000)
      otherCore.release()
      let practice = try? app.state("practice")
      print(
        "periods \(live.statistics.periods), MIDI messages \(live.midiEvents), chords played "
          + "\(practice?[field: "chordsPlayed"] ?? .nil); bare C thread "
          + "\(bare.realtime == 1 ? "SCHED_FIFO 70" : "normal priority"), \(bare.wakes) wakes, "
          + "\(bare.over) stalls")
      benchmark.measurement(underruns, live.statistics.underruns)
      if let paced = live.engine?.output as? PacedNullOutput {
        benchmark.measurement(lateness, paced.lateness.percentile(99))
        benchmark.measurement(
          latency, paced.bufferPeriods * format.periodFrames * 1_000_000 / format.sampleRate)
      }
      benchmark.measurement(bareOver, Int(bare.over))
    }
  }
}
