import Foundation
import PatchbayAudioDevice
import PatchbayMIDI
import RealtimeCheckSupport

/// The checks, outside `main.swift`: closures there are MainActor-isolated and would trap on
/// the audio and reader threads (docs/ARCHITECTURE.md, "The threads"). Returns the exit code.
enum RealtimeCheck {
  static func run() throws -> Int32 {
    let interposer = AllocationCounter.self
    interposer.install()

    // The counter must see allocations, or a 0 below would prove nothing.
    interposer.watch(currentThread: true)
    let probe = [Int](repeating: 1, count: Int.random(in: 100...200))
    interposer.watch(currentThread: false)
    guard interposer.count > 0, probe.count > 0 else {
      print(
        "realtime-check: the allocation counter saw no allocation on purpose; is the interposer linked?"
      )
      return 2
    }
    interposer.reset()

    var failures = 0
    func report(_ what: String, _ count: Int) {
      print("\(what): \(count) allocation(s)")
      if count != 0 { failures += 1 }
    }

    // The audio thread.
    let format = AudioFormat(sampleRate: 48_000, channels: 2, periodFrames: 128)
    let output = try ALSAOutput(device: "null", format: format)
    let ring = SPSCRing<Float>(minimumCapacity: 32 * format.periodSamples)
    let engine = AudioEngine(output: output, sources: [ring])
    let warmUp = 100
    let periods = 10_000
    let producer = Thread {
      SineTone(frequency: 440, format: format).play(
        frames: (warmUp + periods) * format.periodFrames, into: ring)
    }
    producer.start()
    engine.start(periods: warmUp + periods) { period in
      if period == warmUp - 1 { AllocationCounter.watch(currentThread: true) }
      if period == warmUp + periods - 1 { AllocationCounter.watch(currentThread: false) }
    }
    engine.wait()
    output.close()
    report(
      "audio thread, \(periods) periods after \(warmUp) of warm-up (\(engine.schedulingNote))",
      interposer.count)
    interposer.reset()

    // The MIDI parser, on this thread.
    var random = SystemRandomNumberGenerator()
    let bytes = (0..<1_000_000).map { _ in UInt8.random(in: 0...255, using: &random) }
    let events = SPSCRing<MIDIEvent>(minimumCapacity: 1 << 20)
    var parser = MIDIParser()
    var parsed = 0
    bytes.withUnsafeBytes { buffer in
      interposer.watch(currentThread: true)
      parser.parse(buffer, at: 1) { event in
        if events.push(event) { parsed += 1 }
      }
      interposer.watch(currentThread: false)
    }
    report("MIDI parser, \(bytes.count) random bytes → \(parsed) events", interposer.count)
    interposer.reset()

    // The MIDI reader thread.
    let file = FileManager.default.temporaryDirectory.appendingPathComponent(
      "realtime-check-\(getpid()).mid.raw"
    ).path
    _ = FileManager.default.createFile(atPath: file, contents: Data(bytes))
    defer { unlink(file) }
    let input = MIDIInput(source: WatchedSource(try FileByteSource(path: file)))
    input.start()
    var drained = 0
    while !input.isFinished || input.events.availableToRead > 0 {
      while input.events.pop() != nil { drained += 1 }
      usleep(200)
    }
    input.wait()
    report("MIDI reader thread, \(bytes.count) bytes read → \(drained) events", interposer.count)
    interposer.reset()

    // The audio thread running the plugins' processors.
    let processors = try ProcessorCheck.run(periods: periods, warmUp: warmUp)
    report(processors.description, interposer.count)
    interposer.reset()

    // The same, each plugin in a process of its own: the host's side of a period.
    let isolated = try ProcessorCheck.run(periods: periods, warmUp: warmUp, isolated: true)
    report(isolated.description, interposer.count)
    interposer.reset()

    // JACK's process callback, on the server's thread.
    let jack = try JACKCheck.run(periods: 2_000, warmUp: 100)
    report(jack.description, interposer.count)
    interposer.reset()

    // LV2 plugins' run, as the host calls it.
    let lv2 = try LV2Check.run(periods: periods, warmUp: warmUp)
    report(lv2.description, interposer.count)

    return failures == 0 ? 0 : 1
  }
}

/// A byte source that starts the counter on the reader thread after its first read.
final class WatchedSource: MIDIByteSource, @unchecked Sendable {
  let inner: FileByteSource
  var reads = 0
  init(_ inner: FileByteSource) { self.inner = inner }
  var name: String { self.inner.name }
  var isLive: Bool { self.inner.isLive }
  func read(into buffer: UnsafeMutableRawBufferPointer) -> Int {
    self.reads += 1
    if self.reads == 2 { AllocationCounter.watch(currentThread: true) }
    let count = self.inner.read(
      into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<min(buffer.count, 512)]))
    if count <= 0 { AllocationCounter.watch(currentThread: false) }
    return count
  }
  func close() { self.inner.close() }
}
