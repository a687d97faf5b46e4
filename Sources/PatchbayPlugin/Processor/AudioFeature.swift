import PatchbayABI

/// A feature that makes sound: a ``PluginFeature`` with a realtime ``Processor``.
///
/// The reducer keeps the state on the host's app queue. The processor renders on the audio
/// thread. They share nothing but three one-way channels (patchbay/process.h):
/// ``parameters(for:)`` after each action, the period's MIDI, and ``ProcessorEvent``s the
/// host turns into actions with ``action(for:)``.
///
/// ```swift
/// @Feature
/// struct Metronome: AudioFeature {
///   enum Action: Codable {
///     case start
///     @SentBy(.processor) case beat(index: Int)
///   }
///   struct Parameters: BitwiseCopyable { var running = false; var tempo = 120.0 }
///   final class Processor: FeatureProcessor {
///     func process(_ period: ProcessorPeriod, parameters: Parameters) {
///       // on a beat: period.emit(Metronome.event(.beat(index: n), at: frame))
///     }
///   }
///   …
/// }
/// ```
///
/// `@Feature` derives ``parameters(for:)`` (each of `Parameters`' properties from the state's
/// of the same name), ``action(for:)`` and `event(_:at:)` (from the `@SentBy(.processor)`
/// cases); write them yourself when the block is not a copy or an event carries more.
public protocol AudioFeature: PluginFeature {
  associatedtype Processor: FeatureProcessor
  /// The block the processor reads each period, made from the state after each action.
  static func parameters(for state: State) -> Processor.Parameters
  /// The action a processor event becomes; nil drops it.
  static func action(for event: ProcessorEvent) -> Action?
  /// The most events the processor emits in one period. Default: 16; at most 256.
  static var maxProcessorEvents: Int { get }
  /// The most MIDI messages the processor sends to the processors after it in one period
  /// (``ProcessorPeriod/send(_:)``: a sequencer playing a synth). Default: 0; at most 256.
  static var maxMIDIOutput: Int { get }
}

extension AudioFeature {
  public static var maxProcessorEvents: Int { 16 }
  public static var maxMIDIOutput: Int { 0 }
  public static func action(for event: ProcessorEvent) -> Action? { nil }
}

/// The realtime half of an ``AudioFeature``. The host creates it on the app queue (allocate
/// everything there) and calls ``process(_:parameters:)`` on the audio thread once a period:
/// no allocation, no lock, no logging there.
public protocol FeatureProcessor: AnyObject {
  /// Plain numbers the reducer publishes: a struct of `Double`, `Int`, `Bool`, tuples.
  associatedtype Parameters: BitwiseCopyable
  init(configuration: ProcessorConfiguration)
  /// Renders one period, adding into `period.output`.
  func process(_ period: ProcessorPeriod, parameters: Parameters)
}

/// What a processor is created for; fixed while it lives.
public struct ProcessorConfiguration: Sendable, Equatable {
  public var sampleRate: Int
  public var channelCount: Int
  public var maxFrameCount: Int

  public init(sampleRate: Int, channelCount: Int, maxFrameCount: Int) {
    self.sampleRate = sampleRate
    self.channelCount = channelCount
    self.maxFrameCount = maxFrameCount
  }
}

/// What a processor tells its reducer: the feature's own `kind` code and a value, at a frame
/// of the period. ``AudioFeature/action(for:)`` turns it into an action.
public struct ProcessorEvent: Sendable, Equatable, BitwiseCopyable {
  public var frame: Int
  public var kind: UInt32
  public var value: Int64
  /// The steady frame it happened at (set by the host).
  public var time: UInt64

  public init(frame: Int, kind: UInt32, value: Int64 = 0, time: UInt64 = 0) {
    self.frame = frame
    self.kind = kind
    self.value = value
    self.time = time
  }
}
