import CPatchbaySampleChecks
import Synchronization

/// The level of the mix the audio thread writes, per channel: the peak and the RMS since the
/// last look (a terminal's level meter reads it a few dozen times a second).
///
/// ```swift
/// let levels = graph.meter.take()   // [(peak: 0.42, rms: 0.12), (peak: 0.40, rms: 0.11)]
/// ```
///
/// The audio thread adds each period without locking or allocating; `take` swaps the sums out
/// (a period that lands between a load and a store of the other side is lost to the meter,
/// which is all it costs).
package final class LevelMeter: Sendable {
  /// One channel's sums.
  final class Channel: Sendable {
    let peak = Atomic<UInt32>(0)
    let squares = Atomic<UInt64>(0)
  }

  /// The channels measured: the first two.
  private let left = Channel()
  private let right = Channel()
  private let frames = Atomic<Int>(0)

  public init() {}

  /// Adds one period of interleaved samples (one pass in C: `pb_samples_level`).
  /// [audio-thread]
  func measure(_ mix: UnsafePointer<Float>, frames: Int, channels: Int) {
    var peaks: (Float, Float) = (
      Float(bitPattern: self.left.peak.load(ordering: .relaxed)),
      Float(bitPattern: self.right.peak.load(ordering: .relaxed))
    )
    var squares: (Double, Double) = (0, 0)
    withUnsafeMutableBytes(of: &peaks) { peaks in
      withUnsafeMutableBytes(of: &squares) { squares in
        pb_samples_level(
          mix, frames, channels, peaks.baseAddress!.assumingMemoryBound(to: Float.self),
          squares.baseAddress!.assumingMemoryBound(to: Double.self))
      }
    }
    self.left.peak.store(peaks.0.bitPattern, ordering: .relaxed)
    self.right.peak.store(peaks.1.bitPattern, ordering: .relaxed)
    // No array here: a literal allocates, and this is the audio thread.
    Self.add(squares.0, to: self.left)
    Self.add(squares.1, to: self.right)
    self.frames.add(frames, ordering: .relaxed)
  }

  private static func add(_ squares: Double, to sums: Channel) {
    guard squares > 0 else { return }
    let total = Double(bitPattern: sums.squares.load(ordering: .relaxed))
    sums.squares.store((total + squares).bitPattern, ordering: .relaxed)
  }

  /// The peak and RMS of each channel since the last call (0 when nothing played), and starts
  /// again. [thread-safe]
  public func take() -> [(peak: Float, rms: Float)] {
    let frames = self.frames.exchange(0, ordering: .relaxed)
    return [self.left, self.right].map { sums in
      let peak = Float(bitPattern: sums.peak.exchange(0, ordering: .relaxed))
      let sum = Double(bitPattern: sums.squares.exchange(0, ordering: .relaxed))
      return (peak, frames == 0 ? 0 : Float((sum / Double(frames)).squareRoot()))
    }
  }
}
