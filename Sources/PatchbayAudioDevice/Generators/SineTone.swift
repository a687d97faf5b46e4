import Foundation

/// A sine tone, written into a ring from a producer thread: what `patchbay audio tone` plays.
///
/// ```swift
/// let tone = SineTone(frequency: 440, amplitude: 0.25, format: format)
/// tone.play(frames: 96_000, into: ring)   // blocks until all are in the ring
/// ```
public struct SineTone: Sendable {
  public var frequency: Double
  public var amplitude: Float
  public var format: AudioFormat

  public init(frequency: Double, amplitude: Float = 0.25, format: AudioFormat) {
    self.frequency = frequency
    self.amplitude = amplitude
    self.format = format
  }

  /// Writes `frames` frames of the tone (every channel the same) into `ring`, waiting for
  /// space when it is full; returns when the last one is in. [producer]
  public func play(frames: Int, into ring: SPSCRing<Float>, shouldStop: () -> Bool = { false }) {
    let channels = self.format.channels
    let step = 2 * Double.pi * self.frequency / Double(self.format.sampleRate)
    var frame = 0
    while frame < frames && !shouldStop() {
      let (first, second) = ring.writableRegions()
      let room = (first.count + second.count) / channels
      let count = min(room, frames - frame)
      if count == 0 {
        var pause = timespec(tv_sec: 0, tv_nsec: 500_000)
        nanosleep(&pause, nil)
        continue
      }
      for offset in 0..<count {
        let sample = self.amplitude * Float(sin(step * Double(frame + offset)))
        for channel in 0..<channels {
          let index = offset * channels + channel
          if index < first.count {
            first[index] = sample
          } else {
            second[index - first.count] = sample
          }
        }
      }
      ring.commitWrite(count * channels)
      frame += count
    }
  }
}
