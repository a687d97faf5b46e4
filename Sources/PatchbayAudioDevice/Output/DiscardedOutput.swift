/// An output that drops what it is given: where a replay's or a test harness's periods go,
/// played only for what the processors do (a NaN, an event).
///
/// ```swift
/// render.run(frames: 32, into: DiscardedOutput(format: render.format))
/// ```
public final class DiscardedOutput: AudioOutput, Sendable {
  public let format: AudioFormat
  public var name: String { "nowhere" }
  public var pacesItself: Bool { false }

  public init(format: AudioFormat) { self.format = format }

  /// [audio-thread]
  public func write(_ samples: UnsafePointer<Float>) -> AudioWriteResult { .written }
  public func close() {}
}
