import Foundation
import PatchbayPlugin

/// A metronome: the reducer keeps tempo, meter and whether it runs; the processor clicks on
/// the audio thread at exact frames, and tells the reducer each beat it played.
///
/// Actions: `start`, `stop`, `toggle`, `faster`, `slower` (5 BPM), `setTempo(bpm: 120.0)`,
/// `setBeatsPerBar(_: 4)`,
/// `setAccent(_: true)`, and `beat(index: 3)`, which the processor's beat events become.
@Feature
public struct Metronome: AudioFeature {
  public static let id = "dev.patchbay.metronome"
  public static let summary = "Clicks in time; beat 1 of each bar accented."
  /// It hears MIDI start and stop (system messages reach every listener).
  public static let midiChannels: UInt16 = 0xFFFF

  public struct State: Codable, Equatable, Sendable {
    public var tempo = 120.0
    public var beatsPerBar = 4
    public var accent = true
    public var running = false
    /// Which start this is: the processor starts again from beat 1 when it changes.
    public var run = 0
    /// Beats played since the last start; the last one's index.
    public var beatsPlayed = 0
    public var lastBeat = -1

    public init() {}

    /// The beat of the bar now showing, 1-based; 0 before the first.
    public var beatInBar: Int { self.lastBeat < 0 ? 0 : self.lastBeat % self.beatsPerBar + 1 }
  }

  public enum Action: Codable, Equatable, Sendable {
    /// Starts on beat 1 at the next frame
    case start
    /// Stops clicking
    case stop
    /// Starts or stops
    case toggle
    /// 5 BPM faster
    case faster
    /// 5 BPM slower
    case slower
    /// Beats per minute, 20 to 400
    case setTempo(bpm: Double)
    /// 1 to 16
    case setBeatsPerBar(Int)
    /// Whether beat 1 clicks higher
    case setAccent(Bool)
    /// A beat played
    @SentBy(.processor) case beat(index: Int)
    /// MIDI start and stop start and stop it
    @SentBy(.host) case midi(MIDIMessage)
  }

  public init() {}

  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .start:
      state.running = true
      state.run += 1
      state.beatsPlayed = 0
      state.lastBeat = -1
    case .stop:
      state.running = false
    case .toggle:
      return self.reduce(into: &state, action: state.running ? .stop : .start)
    case .faster:
      return self.reduce(into: &state, action: .setTempo(bpm: state.tempo + 5))
    case .slower:
      return self.reduce(into: &state, action: .setTempo(bpm: state.tempo - 5))
    case .setTempo(let bpm):
      state.tempo = min(max(bpm, 20), 400)
    case .setBeatsPerBar(let beats):
      state.beatsPerBar = min(max(beats, 1), 16)
    case .setAccent(let accent):
      state.accent = accent
    case .midi(.start):
      return self.reduce(into: &state, action: .start)
    case .midi(.stop):
      return self.reduce(into: &state, action: .stop)
    case .midi:
      break
    case .beat(let index):
      // A beat of an earlier run, still in the queue after a restart, is not this run's.
      guard state.running, index == state.lastBeat + 1 else { return .none }
      state.lastBeat = index
      state.beatsPlayed += 1
    }
    return .none
  }

  /// What it publishes for other features ("patchbay.shared/1"): the Drums and the Studio
  /// read it without importing the Metronome.
  public struct Transport: Codable, Equatable, Sendable {
    public var tempo: Double
    public var running: Bool
    /// Which start this is: a reader's processor starts from step 1 when it changes, in the
    /// same period as the Metronome's.
    public var run: Int
    public var beatsPerBar: Int
  }

  public static func shared(_ state: State) -> [SharedValue] {
    [
      SharedValue(
        "transport",
        Transport(
          tempo: state.tempo, running: state.running, run: state.run,
          beatsPerBar: state.beatsPerBar))
    ]
  }

  public static func render(_ state: State) -> String {
    let beats = (1...state.beatsPerBar).map { $0 == state.beatInBar ? "●" : "○" }
    return "Metronome — \(Int(state.tempo)) BPM, \(state.beatsPerBar)/4, "
      + (state.running ? "playing" : "stopped") + "\n" + beats.joined(separator: " ")
  }

  // MARK: The realtime half

  /// What the processor reads each period (`@Feature` copies each from the state's property of
  /// the same name; `beat` becomes an event kind for the processor to emit).
  public struct Parameters: BitwiseCopyable, Sendable, Equatable {
    public var running: Bool
    public var run: Int
    public var tempo: Double
    public var beatsPerBar: Int
    public var accent: Bool
  }

  public static var maxProcessorEvents: Int { 4 }

  /// Clicks: a 25 ms decaying sine, 1,500 Hz on an accented beat 1 and 1,000 Hz on the others,
  /// starting on the beat's exact frame: at a steady tempo, `start + round(index × 60 / tempo ×
  /// rate)`, where `start` is the first frame of the period in which the start arrived.
  public final class Processor: FeatureProcessor {
    public typealias Parameters = Metronome.Parameters

    let sampleRate: Double
    let clickFrames: Int
    var run = 0
    var running = false
    /// The next beat: its index since the start, and the steady frame it falls on (before
    /// rounding: beats at a tempo that is not a whole number of frames do not drift).
    var nextBeat = 0
    var nextBeatPosition = 0.0
    /// Where the current click is (frames into it), and its pitch; -1 when silent.
    var clickFrame = -1
    var clickStep = 0.0

    public init(configuration: ProcessorConfiguration) {
      self.sampleRate = Double(configuration.sampleRate)
      self.clickFrames = configuration.sampleRate / 40
    }

    public func process(_ period: ProcessorPeriod, parameters: Parameters) {
      if parameters.run != self.run {
        self.run = parameters.run
        self.nextBeat = 0
        self.nextBeatPosition = Double(period.steadyTime)
      }
      self.running = parameters.running
      let framesPerBeat = 60 / parameters.tempo * self.sampleRate
      let channels = period.channelCount
      let output = period.output
      for frame in 0..<period.frameCount {
        let now = period.steadyTime + UInt64(frame)
        if self.running, Double(now) >= self.nextBeatPosition.rounded() {
          let accented = parameters.accent && self.nextBeat % parameters.beatsPerBar == 0
          self.clickFrame = 0
          self.clickStep = 2 * Double.pi * (accented ? 1_500 : 1_000) / self.sampleRate
          period.emit(Metronome.event(.beat(index: self.nextBeat), at: frame))
          self.nextBeat += 1
          self.nextBeatPosition += framesPerBeat
        }
        guard self.clickFrame >= 0 else { continue }
        let t = Double(self.clickFrame)
        let envelope = 1 - t / Double(self.clickFrames)
        let sample = Float(0.5 * envelope * envelope * cos(self.clickStep * t))
        for channel in 0..<channels { output[frame * channels + channel] += sample }
        self.clickFrame += 1
        if self.clickFrame >= self.clickFrames { self.clickFrame = -1 }
      }
    }
  }
}

#plugin(
  id: "dev.patchbay.metronome-plugin", name: "Metronome", version: "1.0.0",
  features: [Metronome.self])
