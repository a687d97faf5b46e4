import Benchmark
import Foundation
import PatchbayAudio
import PatchbayMIDI
import References
import Synchronization

// The SPSC ring against jack_ringbuffer and boost::lockfree::spsc_queue, the MIDI parser
// against ALSA's encoder, and the paced audio thread over a minute with the other core busy.
// Compare rows within one run: the machine's speed varies 2–4× with load.

let floatsPerRun = 1 << 25  // 32 Mi floats = 128 MiB a sample
let blockFloats = 512
let ringFloats = 8192
let eventsPerRun = 10_000_000

/// MB/s for `bytes` moved in `nanoseconds`.
func megabytesPerSecond(_ bytes: Int, _ nanoseconds: UInt64) -> Int {
  Int(Double(bytes) / Double(max(nanoseconds, 1)) * 1_000)
}

/// `count` floats on their own cache lines, as the references allocate theirs.
func alignedBlock(_ count: Int) -> UnsafeMutableBufferPointer<Float> {
  let raw = UnsafeMutableRawPointer.allocate(byteCount: (count * 4 + 63) / 64 * 64, alignment: 64)
  let buffer = UnsafeMutableBufferPointer(start: raw.bindMemory(to: Float.self, capacity: count), count: count)
  buffer.initialize(repeating: 1)
  return buffer
}

/// Runs `producer` on a new thread pinned to core 1 and `consumer` on this one pinned to core 0,
/// as the references do; returns ns from the start until both finished.
func pinnedPair(producer: @escaping @Sendable () -> Void, consumer: () -> Void) -> UInt64 {
  let done = Atomic<Bool>(false)
  reference_pin_current_thread(0)
  defer { reference_pin_current_thread(-1) }
  let start = monotonicNanoseconds()
  Thread.detachNewThread {
    reference_pin_current_thread(1)
    producer()
    done.store(true, ordering: .releasing)
  }
  consumer()
  while !done.load(ordering: .acquiring) {}
  return monotonicNanoseconds() - start
}

/// Moves `total` floats through an SPSCRing in blocks; returns ns. Like the references, each
/// side waits until a whole block fits (or is there), then copies it.
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
        while ring.availableToWrite < block {}
        ring.write(UnsafeBufferPointer(input))
        sent += block
      }
    },
    consumer: {
      var received = 0
      while received < total {
        while ring.availableToRead < block {}
        received += ring.read(into: output)
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
  while bytes.count < 4_000_000 {
    switch UInt8.random(in: 0..<10, using: &random) {
    case 0..<4: bytes += [0x90 | UInt8.random(in: 0...15), UInt8.random(in: 0...127), UInt8.random(in: 1...127), UInt8.random(in: 0...127), 0]
    case 4..<6: bytes += [0xB0, UInt8.random(in: 0...119), UInt8.random(in: 0...127)]
    case 6: bytes += [0xE0, UInt8.random(in: 0...127), UInt8.random(in: 0...127)]
    case 7, 8: bytes += [0xF8]
    default: bytes += [0xF0] + (0..<20).map { _ in UInt8.random(in: 0...127) } + [0xF7]
    }
  }
  return bytes
}()

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
    benchmark.measurement(.custom("MB/s", polarity: .prefersLarger, useScalingFactor: false), megabytesPerSecond(bytes, nanoseconds))
  }
  Benchmark("ring: 512-float blocks — jack_ringbuffer", configuration: throughput) { benchmark in
    let nanoseconds = reference_jack_blocks(floatsPerRun, blockFloats, ringFloats)
    benchmark.measurement(.custom("MB/s", polarity: .prefersLarger, useScalingFactor: false), megabytesPerSecond(bytes, nanoseconds))
  }
  Benchmark("ring: 512-float blocks — boost::lockfree::spsc_queue", configuration: throughput) { benchmark in
    let nanoseconds = reference_boost_blocks(floatsPerRun, blockFloats, ringFloats)
    benchmark.measurement(.custom("MB/s", polarity: .prefersLarger, useScalingFactor: false), megabytesPerSecond(bytes, nanoseconds))
  }
  Benchmark("events: single 8-byte events — Patchbay SPSCRing", configuration: perEvent) { benchmark in
    let nanoseconds = patchbayEvents(count: eventsPerRun, capacity: 4096)
    benchmark.measurement(.custom("ns per event ×10", useScalingFactor: false), Int(nanoseconds * 10 / UInt64(eventsPerRun)))
  }
  Benchmark("events: single 8-byte events — boost::lockfree::spsc_queue", configuration: perEvent) { benchmark in
    let nanoseconds = reference_boost_events(eventsPerRun, 4096)
    benchmark.measurement(.custom("ns per event ×10", useScalingFactor: false), Int(nanoseconds * 10 / UInt64(eventsPerRun)))
  }

  let midiBytes = midiStream.count
  Benchmark("MIDI parse: Patchbay MIDIParser", configuration: throughput) { benchmark in
    var parser = MIDIParser()
    var events = 0
    let start = monotonicNanoseconds()
    midiStream.withUnsafeBytes { parser.parse($0, at: 0) { _ in events += 1 } }
    let elapsed = monotonicNanoseconds() - start
    blackHole(events)
    benchmark.measurement(.custom("MB/s", polarity: .prefersLarger, useScalingFactor: false), megabytesPerSecond(midiBytes, elapsed))
  }
  Benchmark("MIDI parse: ALSA snd_midi_event_encode_byte", configuration: throughput) { benchmark in
    let start = monotonicNanoseconds()
    let events = midiStream.withUnsafeBufferPointer { reference_alsa_encode($0.baseAddress, $0.count) }
    let elapsed = monotonicNanoseconds() - start
    blackHole(events)
    benchmark.measurement(.custom("MB/s", polarity: .prefersLarger, useScalingFactor: false), megabytesPerSecond(midiBytes, elapsed))
  }

  // 60 s of 128-frame periods at 48 kHz on the paced null device, a thread spinning meanwhile
  // (on a 2-core machine: the other core busy).
  Benchmark(
    "audio: paced null, 128 frames @ 48 kHz, 60 s, other core busy",
    configuration: .init(
      metrics: [
        .custom("underruns", useScalingFactor: false), .custom("late periods (over one period)", useScalingFactor: false),
        .custom("lateness p99 (µs)", useScalingFactor: false), .custom("lateness p50 (µs)", useScalingFactor: false),
      ],
      warmupIterations: 0, maxDuration: .seconds(70), maxIterations: 1)
  ) { benchmark in
    let format = AudioFormat(sampleRate: 48_000, channels: 2, periodFrames: 128)
    let output = PacedNullOutput(format: format)
    let ring = SPSCRing<Float>(minimumCapacity: 32 * format.periodSamples)
    let engine = AudioEngine(output: output, sources: [ring])
    let periods = 60 * 48_000 / 128
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
    engine.start(periods: periods)
    engine.wait()
    busy.store(false, ordering: .relaxed)
    print("steal time during the run: \(stealMilliseconds() - stealBefore) ms (the hypervisor ran something else on our vCPUs)")
    let periodMicroseconds = Int(format.periodNanoseconds / 1_000)
    benchmark.measurement(.custom("underruns", useScalingFactor: false), output.underruns)
    benchmark.measurement(.custom("late periods (over one period)", useScalingFactor: false), output.lateness.count(over: periodMicroseconds))
    benchmark.measurement(.custom("lateness p99 (µs)", useScalingFactor: false), output.lateness.percentile(99))
    benchmark.measurement(.custom("lateness p50 (µs)", useScalingFactor: false), output.lateness.percentile(50))
    print("audio thread: \(engine.schedulingNote); starved periods \(engine.statistics.starvedPeriods)")
  }
}
