import Foundation
import PatchbayAudio
import Testing

@Suite struct PacedNullTests {
  /// 600 periods of 128 frames at 48 kHz (1.6 s) on the audio thread: the periods wake on
  /// time — p99 lateness under one period (2,666 µs) — and at most 1 % arrive a period late.
  @Test func periodsWakeOnTime() {
    let format = AudioFormat(sampleRate: 48_000, channels: 2, periodFrames: 128)
    let output = PacedNullOutput(format: format)
    let ring = SPSCRing<Float>(minimumCapacity: 16 * format.periodSamples)
    let engine = AudioEngine(output: output, sources: [ring])
    let producer = Thread { SineTone(frequency: 440, format: format).play(frames: 600 * 128, into: ring) }
    producer.start()
    let start = monotonicNanoseconds()
    engine.start(periods: 600)
    engine.wait()
    let elapsed = monotonicNanoseconds() - start
    #expect(output.periods == 600)
    #expect(output.lateness.samples == 600)
    let period = Int(format.periodNanoseconds / 1_000)
    #expect(output.lateness.percentile(99) < period, "p99 \(output.lateness.percentile(99)) µs")
    #expect(output.lateness.count(over: period) <= 6)
    // Paced: 600 periods take at least 599 periods' time (the first is due at once).
    #expect(elapsed >= 599 * format.periodNanoseconds)
  }

  @Test func aWriteAPeriodLateIsAnUnderrunAndTheTimelineRestarts() {
    let format = AudioFormat(sampleRate: 48_000, channels: 1, periodFrames: 48)  // 1 ms
    let output = PacedNullOutput(format: format)
    let silence = [Float](repeating: 0, count: 48)
    #expect(output.write(silence) == .written)
    #expect(output.write(silence) == .written)
    usleep(5_000)  // the card would have run dry
    #expect(output.write(silence) == .recoveredUnderrun)
    #expect(output.write(silence) == .written)
    #expect(output.underruns == 1)
  }

  @Test func aSourceThatRunsDryPlaysSilenceAndIsCounted() {
    let format = AudioFormat(sampleRate: 48_000, channels: 2, periodFrames: 64)
    let output = PacedNullOutput(format: format)
    let ring = SPSCRing<Float>(minimumCapacity: 1024)
    let half = [Float](repeating: 0.1, count: 3 * format.periodSamples / 2)
    _ = half.withUnsafeBufferPointer { ring.write($0) }
    let engine = AudioEngine(output: output, sources: [ring])
    engine.start(periods: 10)
    engine.wait()
    // 1 whole period, then a half one, then 8 empty ones.
    #expect(engine.statistics == AudioEngine.Statistics(periods: 10, underruns: 0, starvedPeriods: 9))
    var events: [AudioEngine.Event] = []
    while let event = engine.events.pop() { events.append(event) }
    #expect(events.filter { $0.kind == .starved }.map(\.period) == Array(1..<10))
    #expect(events.last?.kind == .finished)
  }

  @Test func histogramPercentiles() {
    let histogram = LatenessHistogram(maximumMicroseconds: 1_000)
    for value in 1...100 { histogram.record(microseconds: value) }
    histogram.record(microseconds: 5_000)  // clamped
    #expect(histogram.samples == 101)
    #expect(histogram.percentile(50) == 51)
    #expect(histogram.percentile(99) == 100)
    #expect(histogram.count(over: 90) == 11)
  }
}
