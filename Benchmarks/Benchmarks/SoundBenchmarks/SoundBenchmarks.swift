import Benchmark
import BenchmarkSupport
import Foundation
import PatchbayAudioDevice
import PatchbayAudioGraph
import PatchbayConfig
import PatchbayEncoding
import PatchbayHost
import PatchbayIsolation
import PatchbayMIDI
import References
import Synchronization

// The sound side of the host: a processor call, 32 Synths, offline render, MIDI in
// to a reducer, swaps while playing, and a minute live beside the bare C reference thread.
// Compare within one run: this machine's speed varies 2–4× with load.

let format = AudioFormat(sampleRate: 48_000, channels: 2, periodFrames: 128)

let benchmarks: @Sendable () -> Void = {
  let perPeriod = Benchmark.Configuration(
    metrics: [.wallClock, .mallocCountTotal], timeUnits: .nanoseconds, warmupIterations: 100,
    scalingFactor: .kilo, maxDuration: .seconds(5), maxIterations: 20_000)

  // The host's cost around one processor call: a graph of 32 processors that do nothing,
  // rendered as the audio thread would; per processor, that is one period's time ÷ 32. With
  // the safety checks (each processor's output checked for NaN and infinities, the mix
  // clipped), and without them, as the host was before it checked what processors write. Each
  // call is noted for crash and hang reports either way (two stores).
  for checks in [true, false] {
    Benchmark(
      "processor: host around 32 empty processors, one 128-frame period"
        + (checks ? "" : ", without the safety checks (the host before it checked them)"),
      configuration: perPeriod
    ) { benchmark in
      let empty = fixture("emptyprocessor")
      let ids = (1...32).map { "\"e\($0)\"" }.joined(separator: ", ")
      let app = studio(
        synths: 0, extraPlugins: [empty],
        extraFeatures: """
          [[feature]]
          key = "empties"
          id = "dev.patchbay.fixture-empty-processor"
          parent = "metronome"
          kind = "collection"
          ids = [\(ids)]
          """)
      let graph = ProcessorGraph(format: format)
      graph.safetyChecks = checks
      try? app.attach(graph)
      let mix = UnsafeMutablePointer<Float>.allocate(capacity: format.periodSamples)
      mix.initialize(repeating: 0, count: format.periodSamples)
      defer { mix.deallocate() }
      var steady: UInt64 = 0
      benchmark.startMeasurement()
      for _ in benchmark.scaledIterations {
        graph.render(into: mix, frames: 128, steadyTime: steady)
        steady += 128
      }
      benchmark.stopMeasurement()
      print("processors in the graph: \(graph.count) (32 empty + the metronome)")
    }
  }

  // 32 Synths, 16 voices each sounding: one period's time, against the period's 2,667 µs.
  Benchmark("processor: 32 Synths × 16 voices, one 128-frame period", configuration: perPeriod) {
    benchmark in
    let app = studio(synths: 32)
    let graph = ProcessorGraph(format: format)
    try? app.attach(graph)
    for note in 48..<64 { app.receive(MIDIEvent(.noteOn, channel: 0, UInt8(note), 100)) }
    app.perform {}
    let mix = UnsafeMutablePointer<Float>.allocate(capacity: format.periodSamples)
    defer { mix.deallocate() }
    var steady: UInt64 = 0
    graph.render(into: mix, frames: 128, steadyTime: steady)  // the notes start
    benchmark.startMeasurement()
    for _ in benchmark.scaledIterations {
      mix.update(repeating: 0, count: format.periodSamples)
      steady += 128
      graph.render(into: mix, frames: 128, steadyTime: steady)
    }
    benchmark.stopMeasurement()
    blackHole(mix[0])
  }

  // The demo song, offline, through the Metronome and 4 Synths: how many times real time.
  let speed = BenchmarkMetric.custom(
    "× real time", polarity: .prefersLarger, useScalingFactor: false)
  Benchmark(
    "render: offline, the demo song, Metronome + 4 Synths",
    configuration: .init(metrics: [.wallClock, speed], timeUnits: .milliseconds, maxIterations: 10)
  ) { benchmark in
    let app = studio(synths: 4)
    try? app.send("metronome", "start")
    guard let render = try? OfflineRender(app: app, format: format),
      let song = try? StandardMIDIFile(
        contentsOf: repositoryRoot.appendingPathComponent("host-config/songs/demo.mid").path)
    else { fatalError("the demo song or the app did not load") }
    let midi = OfflineRender.schedule(song, sampleRate: 48_000)
    let output = NullOutput(format: format)
    let frames = BenchmarkRun.workload(18, smoke: 1) * 48_000
    let start = monotonicNanoseconds()
    benchmark.startMeasurement()
    render.run(frames: frames, midi: midi, into: output)
    benchmark.stopMeasurement()
    let took = monotonicNanoseconds() - start
    benchmark.measurement(speed, Int(UInt64(frames) * 1_000_000_000 / 48_000 / max(took, 1)))
  }

  // MIDI written to a FIFO, to the listening Synth's reducer: from just before the write to
  // the moment the reduced action is reported, 1,000 messages 2 ms apart. Each message says
  // which it is (note = index % 128, velocity = 1 + index / 128), and a reduce is paired with
  // its own write: a message lost, doubled or out of order is counted, never mismatched. Only
  // the Synth's reduces count (the Metronome, listening on every channel, hears them too).
  let messages = BenchmarkRun.workload(1_000, smoke: 20)
  Benchmark(
    "MIDI in → reducer: FIFO to the Synth's reduce, 1,000 messages",
    configuration: .init(metrics: MIDILatency.metrics, warmupIterations: 0, maxIterations: 1)
  ) { benchmark in
    MIDILatency.run(
      benchmark, app: studio(synths: 1), messages: messages, every: 2_000_000, device: "none",
      listener: "the Synth"
    ) { $0.hasSuffix("synths#s1") }
  }

  // 100 swaps of the Synth to rebuilt copies while it plays on the paced null device.
  let swaps = BenchmarkRun.workload(100, smoke: 3)
  let skipped = BenchmarkMetric.custom("periods without the synth", useScalingFactor: false)
  let heldP99 = BenchmarkMetric.custom("actions held p99 (µs)", useScalingFactor: false)
  let heldP50 = BenchmarkMetric.custom("actions held p50 (µs)", useScalingFactor: false)
  Benchmark(
    "swap while playing: the Synth, 100 rebuilt copies, paced null device",
    configuration: .init(
      metrics: [skipped, heldP50, heldP99], warmupIterations: 0, maxIterations: 1)
  ) { benchmark in
    let app = studio(synths: 1)
    try? app.send("metronome", "stop")
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "patchbay-bench-swap-\(getpid())")
    try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let copy = folder.appendingPathComponent("libSynth.so").path
    try? FileManager.default.removeItem(atPath: copy)
    try? FileManager.default.copyItem(atPath: "\(pluginFolder)/libSynth.so", toPath: copy)
    var settings = SoundSettings()
    settings.device = "null"
    guard let live = try? LiveSession(app: app, settings: settings) else { fatalError("no device") }
    app.receive(MIDIEvent(.noteOn, channel: 0, 57, 90))
    live.start()
    var held: [UInt64] = []
    for index in 0..<swaps {
      try? FileManager.default.setAttributes(
        [.modificationDate: Date(timeIntervalSince1970: 1_700_000_000 + Double(index))],
        ofItemAtPath: copy)
      if let report = try? app.swap("synths", to: copy) {
        held.append(UInt64(report.held.components.attoseconds / 1_000_000_000_000))
      }
      usleep(5_000)
    }
    live.stop()
    let graph = live.graph
    print(
      "swaps: \(held.count), periods: \(graph.periodsRendered), underruns: \(live.statistics.underruns)"
    )
    benchmark.measurement(skipped, 2 * graph.periodsRendered - graph.processorCalls)
    benchmark.measurement(heldP50, Int(percentile(&held, 50)))
    benchmark.measurement(heldP99, Int(percentile(&held, 99)))
  }

  // A minute live on the paced null device: the Metronome and a Synth playing, MIDI arriving
  // through a FIFO, the other core busy. Beside it, the bare C SCHED_FIFO thread: an underrun
  // counts against Patchbay only when the reference ran on time.
  let underruns = BenchmarkMetric.custom("underruns", useScalingFactor: false)
  let lateness = BenchmarkMetric.custom("lateness p99 (µs)", useScalingFactor: false)
  let bareOver = BenchmarkMetric.custom(
    "bare C thread: stalls longer than the buffer", useScalingFactor: false)
  let bareWorst = BenchmarkMetric.custom(
    "bare C thread: lateness worst (µs)", useScalingFactor: false)
  // Isolated, the processors render in the plugins' own processes: a period one of them did
  // not deliver by half the period's time is silence for it, and counted.
  let latePeriods = BenchmarkMetric.custom(
    "isolated periods late or skipped (silence)", useScalingFactor: false)
  // The child is in the root's build, not beside this executable, and must not run under
  // this process's malloc interposer.
  setenv("PATCHBAY_ISOLATED_CHILD", "\(pluginFolder)/patchbay-isolated", 1)
  unsetenv("LD_PRELOAD")
  for isolated in [false, true] {
    Benchmark(
      "live: paced null, 128 frames @ 48 kHz, 60 s, Metronome + Synth + MIDI, other core busy"
        + (isolated ? ", both isolated" : ""),
      configuration: .init(
        metrics: [underruns, lateness, bareOver, bareWorst] + (isolated ? [latePeriods] : []),
        warmupIterations: 0, maxDuration: .seconds(75), maxIterations: 1)
    ) { benchmark in
      let app = studio(synths: 1, isolated: isolated)
      let before = IsolationStatistics.periods
      try? app.send("metronome", "start")
      let seconds = BenchmarkRun.workload(60, smoke: 1)
      let notes = NotesFIFO(name: "live", seconds: seconds, lowest: 48, velocity: 100)
      defer { notes.remove() }
      let busy = Atomic<Bool>(true)
      Thread.detachNewThread {
        var spin: UInt64 = 0
        while busy.load(ordering: .relaxed) { spin &+= 1 }
        blackHole(spin)
      }
      var settings = SoundSettings()
      settings.device = "null"
      settings.midi = .file(notes.path)
      guard let live = try? LiveSession(app: app, settings: settings) else {
        fatalError("no device")
      }
      let watch = reference_stall_watch_start(format.periodNanoseconds)
      live.start()
      _ = live.waitForMIDI(timeout: .seconds(seconds + 10))
      live.stop()
      let bare = reference_stall_watch_stop(watch, 2 * format.periodNanoseconds / 1_000)
      busy.store(false, ordering: .relaxed)
      print(
        "periods \(live.statistics.periods), MIDI messages \(live.midiEvents), beats "
          + "\((try? app.state("metronome")[field: "beatsPlayed"]) ?? .nil); bare C thread "
          + "\(bare.realtime == 1 ? "SCHED_FIFO 70" : "normal priority"), \(bare.wakes) wakes")
      benchmark.measurement(underruns, live.statistics.underruns)
      if let paced = live.engine?.output as? PacedNullOutput {
        benchmark.measurement(lateness, paced.lateness.percentile(99))
      }
      benchmark.measurement(bareOver, Int(bare.over))
      benchmark.measurement(bareWorst, Int(bare.worst_us))
      if isolated {
        let after = IsolationStatistics.periods
        benchmark.measurement(
          latePeriods, Int(after.late - before.late + after.skipped - before.skipped))
        print(
          "isolated processor periods: \(after.rendered - before.rendered) rendered, "
            + "\(after.late - before.late) late, \(after.skipped - before.skipped) skipped")
      }
    }
  }

  studioBenchmarks()
  jackStudioBenchmark()
  lv2FeatureBenchmark()
  wasmVoiceBenchmark()
  BenchmarkRun.finishRegistration()
}

/// An output that takes periods and keeps nothing: offline render's speed without a file.
final class NullOutput: AudioOutput, @unchecked Sendable {
  let format: AudioFormat
  var name: String { "nothing" }
  var pacesItself: Bool { false }
  init(format: AudioFormat) { self.format = format }
  func write(_ samples: UnsafePointer<Float>) -> AudioWriteResult { .written }
  func close() {}
}
