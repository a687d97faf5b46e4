import Benchmark
import BenchmarkSupport
import Foundation
import PatchbayAudioDevice
import PatchbayMIDI
import References
import Synchronization

// The SPSC ring against jack_ringbuffer and boost::lockfree::spsc_queue, the MIDI parser
// against ALSA's encoder, and the paced audio thread over a minute with the other core busy.
// Compare rows within one run: the machine's speed varies 2–4× with load.

let floatsPerRun = BenchmarkRun.workload(1 << 25, smoke: 1 << 16)  // 32 Mi floats = 128 MiB
let blockFloats = 512
let ringFloats = 8192
let eventsPerRun = BenchmarkRun.workload(10_000_000, smoke: 10_000)
/// Rounds of the interleaved ratio benchmarks, and the work a ring does in each.
let rounds = BenchmarkRun.workload(15, smoke: 1)
let floatsPerRound = BenchmarkRun.workload(1 << 21, smoke: 1 << 16)  // 8 MiB
let eventsPerRound = BenchmarkRun.workload(1_000_000, smoke: 10_000)

/// MB/s for `bytes` moved in `nanoseconds`.
func megabytesPerSecond(_ bytes: Int, _ nanoseconds: UInt64) -> Int {
  Int(Double(bytes) / Double(max(nanoseconds, 1)) * 1_000)
}

/// `count` floats on their own cache lines, as the references allocate theirs.
func alignedBlock(_ count: Int) -> UnsafeMutableBufferPointer<Float> {
  let raw = UnsafeMutableRawPointer.allocate(byteCount: (count * 4 + 63) / 64 * 64, alignment: 64)
  let buffer = UnsafeMutableBufferPointer(
    start: raw.bindMemory(to: Float.self, capacity: count), count: count)
  buffer.initialize(repeating: 1)
  return buffer
}

/// Runs `producer` on a new thread pinned to core 1 and `consumer` on this one pinned to core 0,
/// as the references do; returns ns from when both were running until both finished. The clock
/// starts once the producer thread is up: starting a thread on an idle vCPU costs milliseconds
/// here (the hypervisor has to wake it), which would otherwise be timed as ring throughput.
func pinnedPair(producer: @escaping @Sendable () -> Void, consumer: () -> Void) -> UInt64 {
  let stage = Atomic<Int>(0)
  reference_pin_current_thread(0)
  defer { reference_pin_current_thread(-1) }
  Thread.detachNewThread {
    reference_pin_current_thread(1)
    stage.store(1, ordering: .releasing)
    while stage.load(ordering: .acquiring) != 2 {}
    producer()
    stage.store(3, ordering: .releasing)
  }
  while stage.load(ordering: .acquiring) != 1 {}
  let start = monotonicNanoseconds()
  stage.store(2, ordering: .releasing)
  consumer()
  while stage.load(ordering: .acquiring) != 3 {}
  return monotonicNanoseconds() - start
}

/// Moves `total` floats through an SPSCRing in blocks; returns ns. Like the references, each
/// side waits until a whole block fits (or is there), then copies it — through the ring's
/// whole-block calls, as a user of each ring would write it.
func patchbayBlocks(total: Int, block: Int, capacity: Int) -> UInt64 {
  let ring = SPSCRing<Float>(minimumCapacity: capacity)
  let output = alignedBlock(block)
  defer { output.deallocate() }
  return pinnedPair(
    producer: {
      let input = alignedBlock(block)
      defer { input.deallocate() }
      var sent = 0
      while sent < total {
        while !ring.writeAll(UnsafeBufferPointer(input)) {}
        sent += block
      }
    },
    consumer: {
      var received = 0
      while received < total {
        while !ring.readAll(into: output) {}
        received += block
      }
    })
}

/// Moves `count` 8-byte events one at a time; returns ns.
func patchbayEvents(count: Int, capacity: Int) -> UInt64 {
  let ring = SPSCRing<UInt64>(minimumCapacity: capacity)
  var sum: UInt64 = 0
  let nanoseconds = pinnedPair(
    producer: {
      var sent: UInt64 = 0
      while sent < UInt64(count) { if ring.push(sent) { sent += 1 } }
    },
    consumer: {
      var received = 0
      while received < count {
        if let value = ring.pop() {
          sum &+= value
          received += 1
        }
      }
    })
  blackHole(sum)
  return nanoseconds
}

/// A MIDI stream like a busy keyboard: notes with running status, controllers, pitch bend,
/// clock bytes, and a SysEx now and then.
let midiStream: [UInt8] = {
  var random = SystemRandomNumberGenerator()
  var bytes: [UInt8] = []
  while bytes.count < BenchmarkRun.workload(4_000_000, smoke: 4_000) {
    switch UInt8.random(in: 0..<10, using: &random) {
    case 0..<4:
      bytes += [
        0x90 | UInt8.random(in: 0...15), UInt8.random(in: 0...127), UInt8.random(in: 1...127),
        UInt8.random(in: 0...127), 0,
      ]
    case 4..<6: bytes += [0xB0, UInt8.random(in: 0...119), UInt8.random(in: 0...127)]
    case 6: bytes += [0xE0, UInt8.random(in: 0...127), UInt8.random(in: 0...127)]
    case 7, 8: bytes += [0xF8]
    default: bytes += [0xF0] + (0..<20).map { _ in UInt8.random(in: 0...127) } + [0xF7]
    }
  }
  return bytes
}()

/// ``rounds`` rounds of `runs` (15), each run once a round, the order rotating so every run goes first
/// equally often (on this VM the first transfer after a pause can run in a faster mode than
/// the ones after it); returns each round's results in the order of `runs`.
func interleavedRounds(_ runs: [() -> UInt64]) -> [[UInt64]] {
  (0..<rounds).map { round in
    var times = [UInt64](repeating: 0, count: runs.count)
    for turn in runs.indices {
      let index = (round + turn) % runs.count
      times[index] = runs[index]()
    }
    return times
  }
}

/// The middle value.
func median(_ values: [Int]) -> Int { values.sorted()[values.count / 2] }

/// The machine's total steal time so far (/proc/stat), in ms: time the hypervisor took our
/// vCPUs away, which no scheduling priority inside the VM can prevent.
func stealMilliseconds() -> Int {
  guard let stat = try? String(contentsOfFile: "/proc/stat", encoding: .utf8),
    let cpu = stat.split(separator: "\n").first(where: { $0.hasPrefix("cpu ") })
  else { return 0 }
  let fields = cpu.split(separator: " ").dropFirst().compactMap { Int($0) }
  return fields.count > 7 ? fields[7] * 1_000 / Int(sysconf(Int32(_SC_CLK_TCK))) : 0
}

let benchmarks: @Sendable () -> Void = {
  let throughput = Benchmark.Configuration(
    metrics: [.wallClock, .custom("MB/s", polarity: .prefersLarger, useScalingFactor: false)],
    timeUnits: .milliseconds, warmupIterations: 1, maxDuration: .seconds(10), maxIterations: 15)
  let perEvent = Benchmark.Configuration(
    metrics: [.wallClock, .custom("ns per event ×10", useScalingFactor: false)],
    timeUnits: .milliseconds, warmupIterations: 1, maxDuration: .seconds(10), maxIterations: 15)
  let bytes = floatsPerRun * MemoryLayout<Float>.size

  Benchmark("ring: 512-float blocks — Patchbay SPSCRing", configuration: throughput) { benchmark in
    let nanoseconds = patchbayBlocks(total: floatsPerRun, block: blockFloats, capacity: ringFloats)
    benchmark.measurement(
      .custom("MB/s", polarity: .prefersLarger, useScalingFactor: false),
      megabytesPerSecond(bytes, nanoseconds))
  }
  Benchmark("ring: 512-float blocks — jack_ringbuffer", configuration: throughput) { benchmark in
    let nanoseconds = reference_jack_blocks(floatsPerRun, blockFloats, ringFloats)
    benchmark.measurement(
      .custom("MB/s", polarity: .prefersLarger, useScalingFactor: false),
      megabytesPerSecond(bytes, nanoseconds))
  }
  Benchmark("ring: 512-float blocks — boost::lockfree::spsc_queue", configuration: throughput) {
    benchmark in
    let nanoseconds = reference_boost_blocks(floatsPerRun, blockFloats, ringFloats)
    benchmark.measurement(
      .custom("MB/s", polarity: .prefersLarger, useScalingFactor: false),
      megabytesPerSecond(bytes, nanoseconds))
  }
  // The rings back to back in short rounds, so each ratio compares transfers well under a
  // millisecond apart: this VM's cross-core speed switches between modes (about 4, 20 and
  // 50 GB/s — where the hypervisor put the two vCPUs) from one second to the next, which makes
  // rows measured seconds apart disagree by 5×. A sample is the median of its rounds' ratios.
  let overJack = BenchmarkMetric.custom(
    "Patchbay ÷ jack (%)", polarity: .prefersLarger, useScalingFactor: false)
  let overBoost = BenchmarkMetric.custom(
    "Patchbay ÷ boost (%)", polarity: .prefersLarger, useScalingFactor: false)
  let mode = BenchmarkMetric.custom(
    "Patchbay MB/s (the mode)", polarity: .prefersLarger, useScalingFactor: false)
  let ratio = Benchmark.Configuration(
    metrics: [overJack, overBoost, mode], warmupIterations: 1, maxDuration: .seconds(30),
    maxIterations: 40)
  Benchmark("ring: 512-float blocks — throughput ratios, interleaved", configuration: ratio) {
    benchmark in
    let total = floatsPerRound
    let rounds = interleavedRounds([
      { patchbayBlocks(total: total, block: blockFloats, capacity: ringFloats) },
      { reference_jack_blocks(total, blockFloats, ringFloats) },
      { reference_boost_blocks(total, blockFloats, ringFloats) },
    ])
    // Throughput ratio = inverse time ratio.
    benchmark.measurement(overJack, median(rounds.map { Int($0[1] * 100 / max($0[0], 1)) }))
    benchmark.measurement(overBoost, median(rounds.map { Int($0[2] * 100 / max($0[0], 1)) }))
    benchmark.measurement(mode, median(rounds.map { megabytesPerSecond(total * 4, $0[0]) }))
  }
  // Single events, the same way: boost's time ÷ Patchbay's (above 100 %: Patchbay spends fewer
  // ns per event).
  let eventsOverBoost = BenchmarkMetric.custom(
    "boost ns ÷ Patchbay ns per event (%)", polarity: .prefersLarger, useScalingFactor: false)
  let eventRatio = Benchmark.Configuration(
    metrics: [eventsOverBoost], warmupIterations: 1, maxDuration: .seconds(30), maxIterations: 40)
  Benchmark("events: single 8-byte events — ratio, interleaved", configuration: eventRatio) {
    benchmark in
    let rounds = interleavedRounds([
      { patchbayEvents(count: eventsPerRound, capacity: 4096) },
      { reference_boost_events(eventsPerRound, 4096) },
    ])
    benchmark.measurement(eventsOverBoost, median(rounds.map { Int($0[1] * 100 / max($0[0], 1)) }))
  }
  Benchmark("events: single 8-byte events — Patchbay SPSCRing", configuration: perEvent) {
    benchmark in
    let nanoseconds = patchbayEvents(count: eventsPerRun, capacity: 4096)
    benchmark.measurement(
      .custom("ns per event ×10", useScalingFactor: false),
      Int(nanoseconds * 10 / UInt64(eventsPerRun)))
  }
  Benchmark("events: single 8-byte events — boost::lockfree::spsc_queue", configuration: perEvent) {
    benchmark in
    let nanoseconds = reference_boost_events(eventsPerRun, 4096)
    benchmark.measurement(
      .custom("ns per event ×10", useScalingFactor: false),
      Int(nanoseconds * 10 / UInt64(eventsPerRun)))
  }

  let midiBytes = midiStream.count
  Benchmark("MIDI parse: Patchbay MIDIParser", configuration: throughput) { benchmark in
    var parser = MIDIParser()
    var events = 0
    let start = monotonicNanoseconds()
    midiStream.withUnsafeBytes { parser.parse($0, at: 0) { _ in events += 1 } }
    let elapsed = monotonicNanoseconds() - start
    blackHole(events)
    benchmark.measurement(
      .custom("MB/s", polarity: .prefersLarger, useScalingFactor: false),
      megabytesPerSecond(midiBytes, elapsed))
  }
  Benchmark("MIDI parse: ALSA snd_midi_event_encode_byte", configuration: throughput) { benchmark in
    let start = monotonicNanoseconds()
    let events = midiStream.withUnsafeBufferPointer {
      reference_alsa_encode($0.baseAddress, $0.count)
    }
    let elapsed = monotonicNanoseconds() - start
    blackHole(events)
    benchmark.measurement(
      .custom("MB/s", polarity: .prefersLarger, useScalingFactor: false),
      megabytesPerSecond(midiBytes, elapsed))
  }

  // 60 s of 128-frame periods at 48 kHz on the paced null device, a thread spinning meanwhile
  // (on a 2-core machine: the other core busy). Beside it, a bare C SCHED_FIFO thread sleeping
  // the same periods: a stall it sees longer than the buffer would underrun any audio thread,
  // so the two counts side by side say whether an underrun was Patchbay's or the machine's.
  let underruns = BenchmarkMetric.custom("underruns", useScalingFactor: false)
  let late = BenchmarkMetric.custom("late periods (over one period)", useScalingFactor: false)
  let p99 = BenchmarkMetric.custom("lateness p99 (µs)", useScalingFactor: false)
  let p50 = BenchmarkMetric.custom("lateness p50 (µs)", useScalingFactor: false)
  let worst = BenchmarkMetric.custom("lateness worst (µs)", useScalingFactor: false)
  let bareOver = BenchmarkMetric.custom(
    "bare C thread: stalls longer than the buffer", useScalingFactor: false)
  let bareP99 = BenchmarkMetric.custom("bare C thread: lateness p99 (µs)", useScalingFactor: false)
  let bareWorst = BenchmarkMetric.custom(
    "bare C thread: lateness worst (µs)", useScalingFactor: false)
  Benchmark(
    "audio: paced null, 128 frames @ 48 kHz, 60 s, other core busy",
    configuration: .init(
      metrics: [underruns, late, p99, p50, worst, bareOver, bareP99, bareWorst],
      warmupIterations: 0, maxDuration: .seconds(70), maxIterations: 1)
  ) { benchmark in
    let format = AudioFormat(sampleRate: 48_000, channels: 2, periodFrames: 128)
    let output = PacedNullOutput(format: format)
    let ring = SPSCRing<Float>(minimumCapacity: 32 * format.periodSamples)
    let engine = AudioEngine(output: output, sources: [ring])
    let periods = BenchmarkRun.workload(60, smoke: 1) * 48_000 / 128
    let busy = Atomic<Bool>(true)
    Thread.detachNewThread {
      var spin: UInt64 = 0
      while busy.load(ordering: .relaxed) { spin &+= 1 }
      blackHole(spin)
    }
    Thread.detachNewThread {
      SineTone(frequency: 440, format: format).play(frames: periods * 128, into: ring)
    }
    while ring.availableToWrite > format.periodSamples { usleep(1_000) }
    let stealBefore = stealMilliseconds()
    let watch = reference_stall_watch_start(format.periodNanoseconds)
    engine.start(periods: periods)
    engine.wait()
    // A period plays (bufferPeriods − 1) periods after its write is due: later than that is
    // an underrun.
    let bufferMicroseconds = UInt64(output.bufferPeriods - 1) * format.periodNanoseconds / 1_000
    let bare = reference_stall_watch_stop(watch, bufferMicroseconds)
    busy.store(false, ordering: .relaxed)
    print(
      "steal time during the run: \(stealMilliseconds() - stealBefore) ms (the hypervisor ran something else on our vCPUs)"
    )
    print(
      "bare C thread: \(bare.realtime == 1 ? "SCHED_FIFO 70" : "normal priority"), \(bare.wakes) wakes"
    )
    let periodMicroseconds = Int(format.periodNanoseconds / 1_000)
    benchmark.measurement(underruns, output.underruns)
    benchmark.measurement(late, output.lateness.count(over: periodMicroseconds))
    benchmark.measurement(p99, output.lateness.percentile(99))
    benchmark.measurement(p50, output.lateness.percentile(50))
    benchmark.measurement(worst, output.lateness.maximum)
    benchmark.measurement(bareOver, Int(bare.over))
    benchmark.measurement(bareP99, Int(bare.p99_us))
    benchmark.measurement(bareWorst, Int(bare.worst_us))
    print(
      "audio thread: \(engine.schedulingNote); starved periods \(engine.statistics.starvedPeriods)")
  }

  lv2Benchmarks()
  BenchmarkRun.finishRegistration()
}
