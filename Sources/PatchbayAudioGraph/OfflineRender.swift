import PatchbayAudioDevice
import PatchbayHost
import PatchbayMIDI

/// Renders an app's sound offline, on a sample clock: as fast as the CPU allows, every MIDI event
/// at its exact frame, and the same bytes every run (docs/ARCHITECTURE.md, "Audio and MIDI").
/// `patchbay render`, and how tests hear the app.
///
/// ```swift
/// let render = try OfflineRender(app: app, format: AudioFormat(sampleRate: 48_000))
/// let song = try StandardMIDIFile(contentsOf: "song.mid")
/// let wav = try WAVFileOutput(path: "out.wav", format: render.format)
/// render.run(frames: 480_000, midi: OfflineRender.schedule(song, sampleRate: 48_000), into: wav)
/// wav.close()
/// ```
///
/// Each period, on this one thread: the period's MIDI reaches listening reducers (as actions,
/// on the app queue, waited for) and the processors' inbox; the graph renders; the events the
/// processors pushed come back as actions (waited for); the period goes to the output. Nothing
/// depends on the wall clock.
public final class OfflineRender {
  public let app: AppRuntime
  public let graph: ProcessorGraph
  public var format: AudioFormat { self.graph.format }

  /// With `solo`, only those nodes' sound is heard (``ProcessorGraph/solo``).
  public init(app: AppRuntime, format: AudioFormat, solo: Set<String> = []) throws(AppError) {
    self.app = app
    self.graph = ProcessorGraph(format: format, offline: true)
    self.graph.solo = solo
    try app.attach(self.graph)
  }

  /// What a render did.
  public struct Report: Sendable, Equatable {
    public var periods = 0
    public var frames = 0
    public var midiEvents = 0

    public init() {}
  }

  /// Renders at least `frames` frames (whole periods) into `output`. `midi` is sorted by
  /// frame; `beforePeriod` runs on this thread before each period, with its first frame.
  /// Frames rendered so far: where the next period starts.
  public private(set) var position: UInt64 = 0
  private var midi: [(frame: UInt64, event: MIDIEvent)] = []
  private var nextMIDI = 0

  /// Renders `frames` more frames from ``position``, with `midi` (absolute frames) from now on
  /// when given: call it again to go on, with commands to the app in between (a script's
  /// `wait`), and the sound goes on as if it had not stopped.
  @discardableResult
  public func run(
    frames: Int, midi: [(frame: UInt64, event: MIDIEvent)] = [], into output: any AudioOutput,
    beforePeriod: ((UInt64) -> Void)? = nil
  ) -> Report {
    if !midi.isEmpty {
      self.midi = midi
      self.nextMIDI = midi.firstIndex { $0.frame >= self.position } ?? midi.count
    }
    let periodFrames = self.format.periodFrames
    let mix = UnsafeMutablePointer<Float>.allocate(capacity: self.format.periodSamples)
    defer {
      mix.deallocate()
      self.graph.stopWatching()
    }
    var report = Report()
    while report.frames < frames {
      let start = self.position
      beforePeriod?(start)
      while self.nextMIDI < self.midi.count,
        self.midi[self.nextMIDI].frame < start + UInt64(periodFrames)
      {
        self.app.receive(self.midi[self.nextMIDI].event, atFrame: self.midi[self.nextMIDI].frame)
        self.nextMIDI += 1
        report.midiEvents += 1
      }
      self.app.perform {}  // the MIDI actions enqueued above have been reduced
      mix.update(repeating: 0, count: self.format.periodSamples)
      self.graph.render(into: mix, frames: periodFrames, steadyTime: start)
      self.app.deliverProcessorEvents()
      _ = output.write(mix)
      report.periods += 1
      report.frames += periodFrames
      self.position += UInt64(periodFrames)
    }
    return report
  }

  /// Renders `periods` periods that no one hears: for what the processors do in them (a NaN
  /// traced to its processor, events back as actions), as a replay looking for failures and a
  /// test harness play them. What the periods reported has reached the app when it returns.
  public func play(periods: Int) {
    self.run(
      frames: periods * self.format.periodFrames, into: DiscardedOutput(format: self.format))
  }

  /// A period, then those that trace a NaN in it to its processor
  /// (``ProcessorGraph/diagnosisPeriods``).
  public static let periodsToTraceNaN = 1 + ProcessorGraph.diagnosisPeriods

  public static func schedule(_ file: StandardMIDIFile, sampleRate: Int) -> [(
    frame: UInt64, event: MIDIEvent
  )] {
    var parser = MIDIParser()
    var scheduled: [(frame: UInt64, event: MIDIEvent)] = []
    for event in file.events {
      // Integer arithmetic, rounded to the nearest frame: the same frame on every machine.
      let frame = (event.nanoseconds * UInt64(sampleRate) + 500_000_000) / 1_000_000_000
      parser.parse(event.bytes, at: event.nanoseconds) { scheduled.append((frame, $0)) }
    }
    return scheduled
  }
}
