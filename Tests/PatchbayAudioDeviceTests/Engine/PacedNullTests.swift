import Foundation
import PatchbayAudioDevice
import Testing

@Suite struct PacedNullTests {
  /// 600 periods of 128 frames at 48 kHz through the engine, on a clock the test owns: each
  /// write after the buffer is full sleeps until its period's room, wakes on time, and none
  /// underruns; the 600th write is not let through before period 596 has played. How late a
  /// real machine wakes is a benchmark's question ("audio: paced null", beside a bare C thread).
  @Test func theEnginesWritesArePacedByTheDevicesBuffer() {
    let format = AudioFormat(sampleRate: 48_000, channels: 2, periodFrames: 128)
    let clock = FakeClock()
    let start = clock.now
    let output = PacedNullOutput(format: format, clock: clock.pacing)
    let ring = SPSCRing<Float>(minimumCapacity: 16 * format.periodSamples)
    let engine = AudioEngine(output: output, sources: [ring])
    engine.start(periods: 600)
    engine.wait()
    #expect(output.periods == 600)
    #expect(output.lateness.samples == 600 - 3)  // the first three fill the 4-period buffer
    #expect(output.lateness.maximum == 0)
    #expect(output.underruns == 0)
    #expect(clock.sleeps == 600 - 3)
    // Paced, and the clock moved only by sleeps: playback starts three periods in, and the
    // 600th write has room once period 596 has played.
    #expect(clock.now - start == (3 + 596) * format.periodNanoseconds)
  }

  /// With a two-period buffer of 1 ms periods: periods 0 and 1 fill it; 5 ms without a write
  /// means period 2 was due before it came.
  @Test func aWriteAfterItsPeriodWasDueIsAnUnderrunAndTheTimelineRestarts() {
    let clock = FakeClock()
    let output = PacedNullOutput(
      format: Self.millisecondPeriods, bufferPeriods: 2, clock: clock.pacing)
    let silence = [Float](repeating: 0, count: 48)
    #expect(output.write(silence) == .written)
    #expect(output.write(silence) == .written)
    clock.now += 5_000_000  // the card would have run dry
    #expect(output.write(silence) == .recoveredUnderrun)
    #expect(output.write(silence) == .written)
    #expect(output.underruns == 1)
    #expect(output.periods == 4)
  }

  /// A write that sleeps for room but wakes after its period was due is an underrun too (the
  /// stall happened inside the sleep, where the audio thread usually is when the machine
  /// stalls). Sleeps that overshoot by 3 ms stand in for the stall.
  @Test func aWriteThatWakesAfterItsPeriodWasDueIsAnUnderrun() {
    let clock = FakeClock()
    let output = PacedNullOutput(
      format: Self.millisecondPeriods, bufferPeriods: 2, clock: clock.pacing)
    let silence = [Float](repeating: 0, count: 48)
    #expect(output.write(silence) == .written)  // period 0 fills the buffer; plays from +1 ms
    #expect(output.write(silence) == .written)  // period 1: room at once, plays from +2 ms
    clock.overshoot = 3_000_000
    // Period 2: room when period 0 ends (+2 ms) — wakes at +5 ms, after its +3 ms slot.
    #expect(output.write(silence) == .recoveredUnderrun)
    #expect(output.underruns == 1)
    #expect(output.lateness.percentile(100) == 3_000)
    clock.overshoot = 0
    // The timeline restarted at the late wake: the next periods are on time again.
    #expect(output.write(silence) == .written)
    #expect(output.write(silence) == .written)
    #expect(output.underruns == 1)
  }

  /// 48 frames at 48 kHz, mono: 1 ms periods.
  static let millisecondPeriods = AudioFormat(sampleRate: 48_000, channels: 1, periodFrames: 48)

  /// A clock the test moves by hand; its sleeps end `overshoot` ns after the time asked for.
  /// One thread at a time uses it: the test's, or the audio thread's between `start` and `wait`.
  final class FakeClock: @unchecked Sendable {
    var now: UInt64 = 1_000_000_000
    var overshoot: UInt64 = 0
    /// Sleeps asked for.
    var sleeps = 0
    var pacing: PacingClock {
      PacingClock(
        now: { self.now },
        sleep: {
          self.sleeps += 1
          self.now = max(self.now, $0 + self.overshoot)
        })
    }
  }

  /// Paced by a clock the test owns: on the real one, a loaded machine made a period late
  /// (an underrun) now and then, which this test is not about.
  @Test func aSourceThatRunsDryPlaysSilenceAndIsCounted() {
    let format = AudioFormat(sampleRate: 48_000, channels: 2, periodFrames: 64)
    let clock = FakeClock()
    let output = PacedNullOutput(format: format, clock: clock.pacing)
    let ring = SPSCRing<Float>(minimumCapacity: 1024)
    let half = [Float](repeating: 0.1, count: 3 * format.periodSamples / 2)
    _ = half.withUnsafeBufferPointer { ring.write($0) }
    let engine = AudioEngine(output: output, sources: [ring])
    engine.start(periods: 10)
    engine.wait()
    // 1 whole period, then a half one, then 8 empty ones.
    #expect(
      engine.statistics == AudioEngine.Statistics(periods: 10, underruns: 0, starvedPeriods: 9))
    var events: [AudioEngine.Event] = []
    while let event = engine.events.pop() { events.append(event) }
    #expect(events.filter { $0.kind == .starved }.map(\.period) == Array(1..<10))
    #expect(events.last?.kind == .finished)
  }

  @Test func histogramPercentiles() {
    let histogram = LatenessHistogram(maximumMicroseconds: 1_000)
    #expect(histogram.maximum == 0)
    for value in 1...100 { histogram.record(microseconds: value) }
    histogram.record(microseconds: 5_000)  // clamped
    #expect(histogram.samples == 101)
    #expect(histogram.percentile(50) == 51)
    #expect(histogram.percentile(99) == 100)
    #expect(histogram.count(over: 90) == 11)
    #expect(histogram.maximum == 1_000)  // the clamped 5,000
    let small = LatenessHistogram(maximumMicroseconds: 1_000)
    small.record(microseconds: 7)
    small.record(microseconds: 3)
    #expect(small.maximum == 7)
  }
}
