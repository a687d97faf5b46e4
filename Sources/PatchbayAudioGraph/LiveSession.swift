import Foundation
import Patchbay
import PatchbayAudioDevice
import PatchbayConfig
import PatchbayHost
import PatchbayJACK
import PatchbayMIDI
import PatchbayRealtime
import Synchronization

/// An app playing live: its processors on an audio thread into an output device, MIDI from an input
/// to listening features, and processor events back as actions (docs/ARCHITECTURE.md, "Audio and
/// MIDI").
///
/// ```swift
/// let live = try LiveSession(app: app, settings: app.config.sound)
/// live.start()
/// // … the app runs; MIDI arrives; the metronome clicks …
/// live.stop()
/// live.statistics   // periods, underruns
/// ```
///
/// Threads: the audio thread (``AudioEngine``, realtime: renders the ``ProcessorGraph``); the
/// MIDI reader (``MIDIInput`` or ``SMFPlayer``, realtime: parses into a ring); the MIDI pump
/// (not realtime: takes events from that ring, hands them to the processors' inbox and, as
/// actions, to the app queue); a timer that sends processor events to the app queue every
/// 10 ms.
///
/// `@unchecked Sendable`: `start` and `stop` (the only writers of `pump` and `timer`) are
/// called from the one thread that runs the session; the threads it starts share only atomics,
/// rings and the app queue.
public final class LiveSession: @unchecked Sendable {
  public let app: AppRuntime
  public let graph: ProcessorGraph
  public let engine: AudioEngine?
  /// The JACK client, when the app plays through a JACK server (`[audio] backend = "jack"`,
  /// `--audio jack`): the server's process callback renders the graph, so there is no
  /// ``engine``.
  public let jack: JACKOutput?
  /// What `auto` chose, and why, or where JACK plays; nil when nothing was chosen.
  public let deviceNote: String?
  /// JACK: the connections made to the server's playback ports at start.
  public private(set) var playbackConnections: [String] = []
  private let midiInput: MIDIInput?
  private let song: SMFPlayer?
  private let running = Atomic<Bool>(false)
  private var pump: Thread?
  private var timer: DispatchSourceTimer?
  private let pumpDone = DispatchSemaphore(value: 0)
  /// MIDI messages the pump handed on. [thread-safe]
  public var midiEvents: Int { self.pumped.load(ordering: .relaxed) }
  /// Who sees each MIDI message as the pump hands it to the app (DevTools' MIDI monitor).
  private let midiWatcher = LockedValue<(@Sendable (MIDIEvent) -> Void)?>(nil)

  /// Calls `handler` with each MIDI message the app receives, on the pump's thread (not the
  /// reader's: the realtime side is untouched). nil stops it.
  public func watchMIDI(_ handler: (@Sendable (MIDIEvent) -> Void)?) {
    self.midiWatcher.withValue { $0 = handler }
  }
  private let pumped = Atomic<Int>(0)
  /// Whether the pump has handed on the input's last message.
  private let pumpFinished = Atomic<Bool>(false)

  /// Opens the output and the MIDI input `settings` name, and attaches a graph to `app`.
  /// Errors name the device or input and what to do.
  public init(app: AppRuntime, settings: SoundSettings) throws(AppError) {
    self.app = app
    let midi = Self.midiInput(settings)
    do {
      switch (settings.playsAudio, settings.backend) {
      case (true, .jack):
        let jack = try JACKOutput(
          clientName: settings.clientName, serverName: settings.jackServer,
          channels: settings.format.channels, midiInput: midi == .jack)
        // The server's rate; the graph's period is the chunk it renders at a time.
        var format = settings.format
        format.sampleRate = jack.format.sampleRate
        self.graph = ProcessorGraph(format: format)
        (self.jack, self.engine) = (jack, nil)
        self.deviceNote =
          "JACK: client \"\(jack.clientName)\", \(format.sampleRate) Hz, the server's buffer "
          + "\(jack.format.periodFrames) frames, rendered \(format.periodFrames) at a time"
      case (true, .alsa):
        self.graph = ProcessorGraph(format: settings.format)
        let (output, note) = try AudioDevice.open(
          settings.device == "auto" ? nil : settings.device, format: settings.format)
        (self.engine, self.jack) = (AudioEngine(output: output, renderer: self.graph), nil)
        self.deviceNote = note
      case (false, _):
        self.graph = ProcessorGraph(format: settings.format)
        (self.engine, self.jack, self.deviceNote) = (nil, nil, nil)
      }
    } catch {
      throw AppError(.failed(path: "[audio]", reason: error.description))
    }
    do throws(MIDIError) {
      switch midi {
      case .smf(let path):
        self.song = SMFPlayer(file: try StandardMIDIFile(contentsOf: path))
        self.midiInput = nil
      case .jack:
        guard let port = self.jack?.midiInput else {
          throw MIDIError(
            "input \"jack\" is the JACK client's midi_in port: play through JACK too "
              + "([audio] backend = \"jack\", or --audio jack)")
        }
        self.song = nil
        self.midiInput = MIDIInput(source: port)
      default:
        self.song = nil
        self.midiInput = try midi.openSource().map { MIDIInput(source: $0) }
      }
    } catch {
      throw AppError(.failed(path: "[midi]", reason: error.description))
    }
    try app.attach(self.graph)
    if let jack = self.jack {
      do {
        try jack.activate(rendering: self.graph, inChunksOf: self.graph.format.periodFrames)
      } catch {
        throw AppError(.failed(path: "[audio]", reason: error.description))
      }
      if settings.connectsToPlayback { self.playbackConnections = jack.connectToPlayback() }
    }
    // A file or a song ends: until it has, the app is not quiet (a script's `settle` waits
    // for all of it). A port or a FIFO never ends.
    if self.song != nil || self.midiInput?.source.isLive == false {
      app.addQuietCondition { [weak self] in
        self?.pumpFinished.load(ordering: .acquiring) ?? true
      }
    }
  }

  /// The MIDI input `settings` mean: with the JACK backend and no other input named, the
  /// client's `midi_in` port, which a musician patches a keyboard into.
  static func midiInput(_ settings: SoundSettings) -> MIDIInputSpec {
    settings.backend == .jack && settings.playsAudio && settings.midi == .none
      ? .jack : settings.midi
  }

  /// Starts the audio thread, the MIDI reader and pump, and the event timer. (A JACK client
  /// plays from `init` on: the server started calling it when it was activated.)
  public func start() {
    guard !self.running.exchange(true, ordering: .relaxed) else { return }
    self.engine?.start()
    let app = self.app
    let timer = DispatchSource.makeTimerSource(queue: .global())
    timer.schedule(deadline: .now(), repeating: .milliseconds(10))
    timer.setEventHandler { app.deliverProcessorEvents() }
    timer.resume()
    self.timer = timer
    guard self.midiInput != nil || self.song != nil else {
      self.pumpDone.signal()
      return
    }
    self.midiInput?.start()
    self.song?.start()
    let pump = Thread { [self] in self.runPump() }
    pump.name = "patchbay-midi-pump"
    pump.qualityOfService = .userInteractive
    self.pump = pump
    pump.start()
  }

  /// The MIDI pump: moves events from the reader's ring on until the input ends or `stop`.
  private func runPump() {
    let events = self.midiInput?.events ?? self.song!.events
    let doorbell = self.midiInput?.doorbell ?? self.song!.doorbell
    while true {
      let ended = self.midiInput?.isFinished ?? self.song!.isFinished
      var moved = 0
      let watcher = self.midiWatcher.withValue { $0 }
      while let event = events.pop() {
        self.app.receive(event)
        watcher?(event)
        moved += 1
      }
      self.pumped.add(moved, ordering: .relaxed)
      if (ended && events.availableToRead == 0) || !self.running.load(ordering: .relaxed) {
        self.pumpFinished.store(true, ordering: .releasing)
        break
      }
      // Asleep until the reader rings (no polling delay); the timeout notices `stop`.
      if moved == 0 { doorbell.wait(nanoseconds: 20_000_000) }
    }
    self.pumpDone.signal()
  }

  /// Waits until the MIDI input has ended and every event reached the app queue, or
  /// `timeout` passes; returns whether it ended.
  public func waitForMIDI(timeout: Duration) -> Bool {
    let seconds =
      Double(timeout.components.seconds) + Double(timeout.components.attoseconds) * 1e-18
    guard self.pumpDone.wait(timeout: .now() + seconds) == .success else { return false }
    self.pumpDone.signal()  // later waiters too
    return true
  }

  /// Stops the audio thread, the MIDI pump and the timer, then delivers the last events.
  public func stop() {
    guard self.running.exchange(false, ordering: .relaxed) else { return }
    self.graph.stopWatching()
    self.engine?.stop()
    self.engine?.output.close()
    self.jack?.close()
    self.timer?.cancel()
    self.timer = nil
    self.midiInput?.source.close()
    // The pump may be asleep: wake it to see `running`.
    (self.midiInput?.doorbell ?? self.song?.doorbell)?.ring()
    _ = self.pumpDone.wait(timeout: .now() + 5)
    // A reader that ended (the source closed) is joined, not leaked; one still blocked in a
    // read that close did not wake is left to end with the process.
    if self.midiInput?.isFinished == true { self.midiInput?.wait() }
    self.app.deliverProcessorEvents()
  }

  /// The audio thread's counts so far (JACK: its periods, and its xruns as underruns).
  public var statistics: AudioEngine.Statistics {
    if let jack = self.jack?.statistics {
      return .init(periods: jack.periods, underruns: jack.xruns)
    }
    return self.engine?.statistics ?? .init()
  }

  deinit {
    self.stop()
  }
}
