import Foundation
import Synchronization

/// Renders into the engine's mix each period: the host's processors (docs/ARCHITECTURE.md, "Audio
/// and MIDI").
public protocol AudioRenderer: AnyObject, Sendable {
  /// Adds one period of `frames` interleaved frames into `mix`; `steadyTime` counts the frames
  /// before this period. [audio-thread]: no allocation, no lock, no logging.
  func render(into mix: UnsafeMutablePointer<Float>, frames: Int, steadyTime: UInt64)
}

/// The audio thread: every period it reads one period from each source ring, mixes them, and
/// writes the mix to the output (docs/ARCHITECTURE.md, "Audio and MIDI").
///
/// ```swift
/// let ring = SPSCRing<Float>(minimumCapacity: 8 * format.periodSamples) let engine =
/// AudioEngine(output: try ALSAOutput(device: "default", format: format), sources: [ring])
/// engine.start(periods: 1_000) // or nil: until stop() // … a producer thread writes interleaved
/// samples into `ring` … engine.wait() engine.statistics // periods, underruns, starved periods
/// ```
///
/// On the audio thread: no allocation, no lock, no logging, no reducer; what the app needs to
/// know (an underrun, a starved source) goes out through ``events``, an `SPSCRing` the app
/// drains. A source with less than a period ready plays what it has, then silence (a
/// *starved* period). An output that does not pace itself (a file) is fed only whole periods:
/// the engine waits for its sources instead.
public final class AudioEngine: @unchecked Sendable {
  /// What the audio thread tells the app.
  public struct Event: Sendable, BitwiseCopyable, Equatable {
    public enum Kind: UInt8, Sendable, BitwiseCopyable { case underrun, starved, failed, finished }
    public var kind: Kind
    public var period: Int
    public var code: Int32
  }

  /// Counts since `start`.
  public struct Statistics: Sendable, Equatable {
    public var periods = 0
    public var underruns = 0
    public var starvedPeriods = 0

    public init(periods: Int = 0, underruns: Int = 0, starvedPeriods: Int = 0) {
      (self.periods, self.underruns, self.starvedPeriods) = (periods, underruns, starvedPeriods)
    }
  }

  public let output: any AudioOutput
  public let sources: [SPSCRing<Float>]
  /// What renders into each period after the sources are mixed: the app's processors.
  public let renderer: (any AudioRenderer)?
  /// Events from the audio thread, oldest first. [consumer: the app]
  public let events = SPSCRing<Event>(minimumCapacity: 1024)
  private let periodsDone = Atomic<Int>(0)
  private let underrunCount = Atomic<Int>(0)
  private let starvedCount = Atomic<Int>(0)
  private let running = Atomic<Bool>(false)
  /// The sources again, as plain memory: iterating an `Array` allocates in unoptimized builds
  /// (the generic subscript's coroutine frame), which realtime-check caught.
  private let sourceList: UnsafeMutablePointer<SPSCRing<Float>>
  private let mix: UnsafeMutablePointer<Float>
  private var thread: RealtimeThread?

  public init(
    output: any AudioOutput, sources: [SPSCRing<Float>] = [], renderer: (any AudioRenderer)? = nil
  ) {
    self.output = output
    self.sources = sources
    self.renderer = renderer
    self.sourceList = .allocate(capacity: max(1, sources.count))
    self.sourceList.initialize(from: sources, count: sources.count)
    let samples = output.format.periodSamples
    // Cache-line aligned like the rings' storage: copies between aligned buffers take the
    // CPU's fast string path; a misaligned destination can be several times slower.
    func aligned() -> UnsafeMutablePointer<Float> {
      let pointer = UnsafeMutableRawPointer.allocate(byteCount: samples * 4, alignment: 64)
        .bindMemory(to: Float.self, capacity: samples)
      pointer.initialize(repeating: 0, count: samples)
      return pointer
    }
    self.mix = aligned()
  }

  deinit {
    self.stop()
    self.sourceList.deinitialize(count: self.sources.count)
    self.sourceList.deallocate()
    self.mix.deallocate()
  }

  /// How the audio thread is scheduled (see ``RealtimeThread/schedulingNote``).
  public private(set) var schedulingNote = "not started"

  /// Counts so far. [thread-safe]
  public var statistics: Statistics {
    Statistics(
      periods: self.periodsDone.load(ordering: .relaxed),
      underruns: self.underrunCount.load(ordering: .relaxed),
      starvedPeriods: self.starvedCount.load(ordering: .relaxed))
  }

  /// Starts the audio thread; it runs `periods` periods, or until ``stop()`` when nil.
  /// `onPeriod`, if given, runs on the audio thread after each write (tests and benchmarks
  /// measure there; it must be realtime-safe too).
  public func start(periods: Int? = nil, onPeriod: (@Sendable (Int) -> Void)? = nil) {
    precondition(self.thread == nil, "the engine is already running")
    self.running.store(true, ordering: .relaxed)
    // A device that paces itself needs its periods on time; a file does not, and a realtime
    // thread waiting on its sources would only take the CPU from those that do.
    let reason = self.output.pacesItself ? nil : "\(self.output.name) does not play in real time"
    let thread = RealtimeThread(name: "patchbay-audio", realtimeNotNeeded: reason) { [self] in
      self.run(periods: periods ?? Int.max, onPeriod: onPeriod)
    }
    self.schedulingNote = thread.schedulingNote
    self.thread = thread
  }

  /// Stops the audio thread after its current period and waits for it.
  public func stop() {
    self.running.store(false, ordering: .relaxed)
    self.wait()
  }

  /// Waits until the audio thread ends.
  public func wait() {
    self.thread?.join()
    self.thread = nil
  }

  /// The audio thread's loop. [audio-thread]
  private func run(periods: Int, onPeriod: (@Sendable (Int) -> Void)?) {
    let samples = self.output.format.periodSamples
    let waitsForSources = !self.output.pacesItself
    let sourceCount = self.sources.count
    let frames = self.output.format.periodFrames
    let renderer = self.renderer
    var period = 0
    while period < periods && self.running.load(ordering: .relaxed) {
      self.mix.update(repeating: 0, count: samples)
      var starved = false
      for sourceIndex in 0..<sourceCount {
        let source = (self.sourceList + sourceIndex).pointee
        if waitsForSources {
          while source.availableToRead < samples && self.running.load(ordering: .relaxed) {
            var pause = timespec(tv_sec: 0, tv_nsec: 100_000)
            nanosleep(&pause, nil)
          }
        }
        // Mixed straight from the ring's memory: no copy in between.
        let (first, second) = source.readableRegions()
        let fromFirst = min(samples, first.count)
        let fromSecond = min(samples - fromFirst, second.count)
        if let start = first.baseAddress {
          for index in 0..<fromFirst { self.mix[index] += start[index] }
        }
        if let start = second.baseAddress {
          for index in 0..<fromSecond { self.mix[fromFirst + index] += start[index] }
        }
        source.commitRead(fromFirst + fromSecond)
        if fromFirst + fromSecond < samples { starved = true }
      }
      renderer?.render(into: self.mix, frames: frames, steadyTime: UInt64(period * frames))
      if starved {
        self.starvedCount.add(1, ordering: .relaxed)
        self.events.push(Event(kind: .starved, period: period, code: 0))
      }
      switch self.output.write(self.mix) {
      case .written: break
      case .recoveredUnderrun:
        self.underrunCount.add(1, ordering: .relaxed)
        self.events.push(Event(kind: .underrun, period: period, code: 0))
      case .failed(let code):
        self.events.push(Event(kind: .failed, period: period, code: code))
        self.running.store(false, ordering: .relaxed)
      }
      onPeriod?(period)
      period += 1
      self.periodsDone.store(period, ordering: .relaxed)
    }
    self.events.push(Event(kind: .finished, period: period, code: 0))
  }
}
