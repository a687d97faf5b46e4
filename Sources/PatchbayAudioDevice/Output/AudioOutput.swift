/// The shape of the audio a backend takes: interleaved `Float` frames.
public struct AudioFormat: Sendable, Equatable, CustomStringConvertible {
  public var sampleRate: Int
  public var channels: Int
  /// Frames per period: what the engine writes at a time.
  public var periodFrames: Int

  public init(sampleRate: Int = 48_000, channels: Int = 2, periodFrames: Int = 128) {
    self.sampleRate = sampleRate
    self.channels = channels
    self.periodFrames = periodFrames
  }

  /// Samples (frames × channels) in one period.
  public var periodSamples: Int { self.periodFrames * self.channels }

  /// How long one period plays, in nanoseconds.
  public var periodNanoseconds: UInt64 {
    UInt64(self.periodFrames) * 1_000_000_000 / UInt64(self.sampleRate)
  }

  public var description: String {
    "\(self.sampleRate) Hz, \(self.channels) ch, period \(self.periodFrames) frames"
  }
}

/// What one period's write did.
public enum AudioWriteResult: Equatable, Sendable {
  /// The period was written.
  case written
  /// The device had run dry (an underrun); it was recovered and the period written.
  case recoveredUnderrun
  /// The device failed with this errno-style code; the engine stops.
  case failed(Int32)
}

/// Where the engine's mixed periods go: an ALSA PCM, a WAV file, the paced null device.
public protocol AudioOutput: AnyObject, Sendable {
  /// For people: `ALSA "default"`, `WAV file out.wav (through ALSA's file plugin)`, ….
  var name: String { get }
  var format: AudioFormat { get }
  /// Whether `write` waits for the device (a sound card, the paced null device). A file does
  /// not: the engine then waits for its sources instead of playing silence.
  var pacesItself: Bool { get }
  /// Writes one period of interleaved samples (`format.periodSamples` of them).
  /// [audio-thread]: no allocation, no lock, no logging.
  func write(_ samples: UnsafePointer<Float>) -> AudioWriteResult
  /// Plays what is queued, then closes the device. Not on the audio thread.
  func close()
}

/// Why an output could not open: one line naming the device and what to do.
public struct AudioError: Error, CustomStringConvertible, Equatable {
  public let description: String
  public init(_ description: String) { self.description = description }
}
