import PatchbayAudio
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

  public init(app: AppRuntime, format: AudioFormat) throws(AppError) {
    self.app = app
    self.graph = ProcessorGraph(format: format, offline: true)
    try app.attach(self.graph)
  }

  /// What a render did.
  public struct Report: Sendable, Equatable {
    public var periods = 0
    public var frames = 0
    public var midiEvents = 0
  }

  /// Renders at least `frames` frames (whole periods) into `output`. `midi` is sorted by
  /// frame; `beforePeriod` runs on this thread before each period, with its first frame.
  @discardableResult
  public func run(
    frames: Int, midi: [(frame: UInt64, event: MIDIEvent)] = [], into output: any AudioOutput,
    beforePeriod: ((UInt64) -> Void)? = nil
  ) -> Report {
    let periodFrames = self.format.periodFrames
    let mix = UnsafeMutablePointer<Float>.allocate(capacity: self.format.periodSamples)
    defer {
      mix.deallocate()
      self.graph.stopWatching()
    }
    var report = Report()
    var next = 0
    while report.frames < frames {
      let start = UInt64(report.frames)
      beforePeriod?(start)
      while next < midi.count, midi[next].frame < start + UInt64(periodFrames) {
        self.app.receive(midi[next].event, atFrame: midi[next].frame)
        next += 1
        report.midiEvents += 1
      }
      self.app.perform {}  // the MIDI actions enqueued above have been reduced
      mix.update(repeating: 0, count: self.format.periodSamples)
      self.graph.render(into: mix, frames: periodFrames, steadyTime: start)
      self.app.deliverProcessorEvents()
      _ = output.write(mix)
      report.periods += 1
      report.frames += periodFrames
    }
    return report
  }

  /// A MIDI file's channel and start/stop messages at their frames: `round(seconds × rate)`.
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
