import CPatchbaySampleChecks
import PatchbayRealtime
import Synchronization

/// What a watcher sees of the sound (DevTools' Sound view): the mix's first two channels,
/// copied by the audio thread into a lock-free ring, and each processor's peak. Off until a
/// watcher turns it on; then the audio thread's cost is one copy of the period and, per
/// processor, one copy and one pass, into memory allocated before. It never waits for the
/// watcher: what does not fit in the ring is dropped (and counted).
///
/// ```swift
/// graph.tap.isOn = true
/// var frames = [Float](repeating: 0, count: 8192)       // interleaved left, right
/// let count = graph.tap.read(into: &frames)              // what played since the last read
/// graph.processorPeaks()                                 // [("synth", 0.42), …]
/// ```
public final class SoundTap: Sendable {
  /// Interleaved left and right samples; about 0.7 s at 48 kHz.
  let ring = SPSCRing<Float>(minimumCapacity: 65_536)
  private let on = Atomic<Bool>(false)
  private let droppedSamples = Atomic<Int>(0)
  /// The mix as it was before the processor being measured wrote to it. [audio-thread]
  nonisolated(unsafe) let before: UnsafeMutablePointer<Float>
  let capacity: Int

  init(periodSamples: Int) {
    self.capacity = periodSamples
    self.before = .allocate(capacity: max(periodSamples, 1))
    self.before.initialize(repeating: 0, count: max(periodSamples, 1))
  }

  deinit { self.before.deallocate() }

  /// Whether the audio thread copies the sound (turn it off when nobody watches).
  public var isOn: Bool {
    get { self.on.load(ordering: .relaxed) }
    set { self.on.store(newValue, ordering: .relaxed) }
  }

  /// Samples the watcher did not read in time, dropped, so far.
  public var dropped: Int { self.droppedSamples.load(ordering: .relaxed) }

  /// Copies one period's first two channels into the ring (mono is copied to both); what does
  /// not fit is dropped. [audio-thread]
  func capture(_ mix: UnsafePointer<Float>, frames: Int, channels: Int) {
    let (first, second) = self.ring.writableRegions()
    let room = (first.count + second.count) / 2
    let taken = min(frames, room)
    // No arrays or closures here: this is the audio thread.
    for frame in 0..<taken {
      let left = mix[frame * channels]
      let right = channels > 1 ? mix[frame * channels + 1] : left
      let index = frame * 2
      if index < first.count { first[index] = left } else { second[index - first.count] = left }
      if index + 1 < first.count {
        first[index + 1] = right
      } else {
        second[index + 1 - first.count] = right
      }
    }
    self.ring.commitWrite(taken * 2)
    if taken < frames { self.droppedSamples.add((frames - taken) * 2, ordering: .relaxed) }
  }

  /// Reads what played since the last read, up to `frames.count` samples (interleaved left and
  /// right); returns how many. [one reader]
  public func read(into frames: inout [Float]) -> Int {
    frames.withUnsafeMutableBufferPointer { self.ring.read(into: $0) }
  }
}
