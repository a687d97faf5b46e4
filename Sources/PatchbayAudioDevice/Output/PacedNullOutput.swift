import Foundation

/// A device that plays nothing, in real time: it takes periods as a sound card with a buffer of
/// `bufferPeriods` periods would, on CLOCK_MONOTONIC. ALSA's own `null` PCM takes periods as
/// fast as they come, so it cannot stand in for a card; this can (CI, machines without sound).
///
/// ```swift
/// let output = PacedNullOutput(format: AudioFormat(periodFrames: 128))
/// // after a run:
/// output.lateness.percentile(99)   // µs the writes woke after the buffer had room
/// output.underruns                 // periods that were not there when they were due to play
/// ```
///
/// Like ALSA with its default start threshold, playback starts once the buffer is full, and
/// then period `n` plays from `start + n × period`. A write waits (`clock_nanosleep`,
/// absolute) until the buffer has room — when period `n − bufferPeriods` has finished — and its
/// lateness is how long after that it woke. A period that enters the buffer after it was due
/// to play — because the write came late, or woke late — is an underrun: a card would have
/// played silence; the timeline restarts from now, as `snd_pcm_recover` would.
public final class PacedNullOutput: AudioOutput, @unchecked Sendable {
  public let name = "paced null device (CLOCK_MONOTONIC, plays nothing)"
  public let format: AudioFormat
  public let pacesItself = true
  /// The buffer, in periods (ALSAOutput asks cards for 4).
  public let bufferPeriods: Int
  /// How late each write woke, in microseconds. Written by the audio thread only.
  public let lateness: LatenessHistogram
  /// Periods that were not there when due to play. [audio-thread] writes it.
  public private(set) var underruns = 0
  /// Periods written.
  public private(set) var periods = 0
  /// When period 0 plays (clock ns).
  private var start: UInt64 = 0
  private let clock: PacingClock

  /// `clock` is CLOCK_MONOTONIC; tests pass one whose sleeps overshoot, to stall on purpose.
  public init(format: AudioFormat, bufferPeriods: Int = 4, clock: PacingClock = .monotonic) {
    precondition(bufferPeriods >= 1, "a buffer holds at least one period")
    self.format = format
    self.bufferPeriods = bufferPeriods
    self.clock = clock
    self.lateness = LatenessHistogram(maximumMicroseconds: 100_000)
  }

  public func write(_ samples: UnsafePointer<Float>) -> AudioWriteResult {
    let period = self.format.periodNanoseconds
    let ahead = UInt64(self.bufferPeriods - 1)
    let n = UInt64(self.periods)
    var now = self.clock.now()
    // The buffer fills at once; playback starts when it is full.
    if self.periods == 0 { self.start = now + ahead * period }
    if n >= ahead {
      let room = self.start + (n - ahead) * period
      if now < room {
        self.clock.sleep(room)
        now = self.clock.now()
      }
      self.lateness.record(microseconds: Int((now &- room) / 1_000))
    }
    self.periods += 1
    // Period n enters the buffer now; the card plays it from start + n × period.
    guard now > self.start + n * period else { return .written }
    self.underruns += 1
    self.start = now + ahead * period - n * period
    return .recoveredUnderrun
  }

  public func close() {}
}

/// The clock a ``PacedNullOutput`` paces itself by: what time it is, and sleeping until an
/// absolute time, in nanoseconds. Calls allocate nothing (the audio thread makes them).
///
/// ```swift
/// let output = PacedNullOutput(format: format)                     // CLOCK_MONOTONIC
/// let stalling = PacingClock(now: { fake.now }, sleep: { fake.now = $0 + 3_000_000 })
/// ```
public struct PacingClock: Sendable {
  public var now: @Sendable () -> UInt64
  public var sleep: @Sendable (_ until: UInt64) -> Void

  public init(
    now: @escaping @Sendable () -> UInt64, sleep: @escaping @Sendable (_ until: UInt64) -> Void
  ) {
    self.now = now
    self.sleep = sleep
  }

  /// CLOCK_MONOTONIC, with absolute `clock_nanosleep`.
  public static let monotonic = PacingClock(
    now: monotonicNanoseconds,
    sleep: { until in
      var target = timespec(tv_sec: Int(until / 1_000_000_000), tv_nsec: Int(until % 1_000_000_000))
      while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &target, nil) == EINTR {}
    })
}

/// Counts of values in 1 µs buckets, without allocating after `init`. One writer.
public final class LatenessHistogram: @unchecked Sendable {
  private let buckets: UnsafeMutablePointer<Int>
  private let count: Int
  public private(set) var samples = 0

  public init(maximumMicroseconds: Int) {
    self.count = maximumMicroseconds + 1
    self.buckets = .allocate(capacity: self.count)
    self.buckets.initialize(repeating: 0, count: self.count)
  }

  deinit { self.buckets.deallocate() }

  /// Records one value (clamped to the maximum). [audio-thread]
  public func record(microseconds: Int) {
    self.buckets[min(max(0, microseconds), self.count - 1)] += 1
    self.samples += 1
  }

  /// The value below which `percent` % of the samples fall, in µs.
  public func percentile(_ percent: Double) -> Int {
    guard self.samples > 0 else { return 0 }
    let wanted = Int((Double(self.samples) * percent / 100).rounded(.up))
    var seen = 0
    for index in 0..<self.count {
      seen += self.buckets[index]
      if seen >= wanted { return index }
    }
    return self.count - 1
  }

  /// The largest value recorded (clamped to the maximum), in µs; 0 when empty. For reports —
  /// a single stall decides it, so tests assert percentiles instead.
  public var maximum: Int {
    var index = self.count - 1
    while index > 0 && self.buckets[index] == 0 { index -= 1 }
    return index
  }

  /// How many samples exceeded `microseconds`.
  public func count(over microseconds: Int) -> Int {
    guard microseconds + 1 < self.count else { return 0 }
    return (microseconds + 1..<self.count).reduce(0) { $0 + self.buckets[$1] }
  }
}
