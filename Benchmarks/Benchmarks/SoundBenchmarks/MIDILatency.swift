import Benchmark
import BenchmarkSupport
import Foundation
import PatchbayAudioDevice
import PatchbayAudioGraph
import PatchbayConfig
import PatchbayHost

/// MIDI written to a FIFO on a fixed grid (absolute times, so a late wake does not slow the
/// rate), to a listening reducer: from just before each write to the moment its reduce is
/// reported. Each message says which it is (``MIDITimeline``), so a reduce is paired with its
/// own write: a message lost, doubled or out of order is counted, never mismatched.
///
/// ```swift
/// MIDILatency.run(benchmark, app: app, messages: 1_000, every: 2_000_000, device: "none",
///   listener: "the Synth") { $0.hasSuffix("synths#s1") }
/// ```
enum MIDILatency {
  static let p50 = BenchmarkMetric.custom("latency p50 (µs)", useScalingFactor: false)
  static let p99 = BenchmarkMetric.custom("latency p99 (µs)", useScalingFactor: false)
  static let worst = BenchmarkMetric.custom("latency worst (µs)", useScalingFactor: false)
  static let lost = BenchmarkMetric.custom("messages lost", useScalingFactor: false)
  static let metrics = [p50, p99, worst, lost]

  static func run(
    _ benchmark: Benchmark, app: AppRuntime, messages: Int, every nanoseconds: UInt64,
    device: String, listener: String, reducedAt matches: @escaping @Sendable (String) -> Bool
  ) {
    let fifo = FileManager.default.temporaryDirectory.appendingPathComponent(
      "patchbay-bench-midi-\(getpid()).fifo"
    ).path
    unlink(fifo)
    mkfifo(fifo, 0o600)
    defer { unlink(fifo) }
    let timeline = MIDITimeline(messages: messages)
    app.onChange { change in
      if case .action(let path, let text, .midi, _) = change, matches(path),
        let index = MIDITimeline.index(ofNoteOn: text)
      {
        timeline.reduced(index, at: monotonicNanoseconds())
      }
    }
    let writer = Thread {
      guard let handle = FileHandle(forWritingAtPath: fifo) else { return }
      let start = monotonicNanoseconds()
      for index in 0..<messages {
        let due = start + UInt64(index) * nanoseconds
        let now = monotonicNanoseconds()
        if due > now { usleep(UInt32((due - now) / 1_000)) }
        let (note, velocity) = MIDITimeline.noteOn(index)
        timeline.written(index, at: monotonicNanoseconds())
        handle.write(Data([0x90, note, velocity]))
      }
      try? handle.close()
    }
    writer.start()
    var settings = SoundSettings()
    settings.device = device
    settings.midi = .file(fifo)
    guard let live = try? LiveSession(app: app, settings: settings) else { fatalError("no FIFO") }
    live.start()
    _ = live.waitForMIDI(timeout: .seconds(60))
    live.stop()
    app.perform {}  // the last actions reduced
    let result = timeline.result()
    print(
      "messages written \(messages), reduced by \(listener) \(result.latencies.count), lost "
        + "\(result.lost), doubled \(result.doubled), out of order \(result.reordered); "
        + "periods \(live.statistics.periods), underruns \(live.statistics.underruns)")
    var latencies = result.latencies
    benchmark.measurement(Self.p50, Int(percentile(&latencies, 50)))
    benchmark.measurement(Self.p99, Int(percentile(&latencies, 99)))
    benchmark.measurement(Self.worst, Int(latencies.last ?? 0))
    benchmark.measurement(Self.lost, result.lost)
    if result.lost + result.doubled + result.reordered > 0 {
      benchmark.error(
        "the MIDI path lost \(result.lost), doubled \(result.doubled) and reordered "
          + "\(result.reordered) of \(messages) messages")
    }
  }
}
