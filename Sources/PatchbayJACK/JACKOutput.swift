import CJACK
import PatchbayAudioDevice
import PatchbayRealtime
import Synchronization

/// The app's sound as a JACK client: output ports a session can patch (Ardour, Carla, a
/// `jack_connect`), fed by the renderer from JACK's own process callback.
///
/// ```swift
/// let output = try JACKOutput(clientName: "patchbay", channels: 2)
/// let graph = ProcessorGraph(format: output.format)     // the server's rate
/// try output.activate(rendering: graph, inChunksOf: 128) // ports patchbay:out_1, …_2 appear
/// // jack_connect patchbay:out_1 system:playback_1
/// output.statistics              // periods, xruns, the server's buffer size and rate
/// output.close()
/// ```
///
/// JACK pulls: the server calls the process callback once a period, on its realtime thread,
/// and the callback renders the period there, with the audio thread's rules (no allocation,
/// no lock, no logging, no reducer). The server's buffer size and rate are followed: the mix
/// is allocated once for JACK's largest buffer, so a change of size needs nothing new, and a
/// period longer than the renderer's chunk is rendered in chunks (a graph's processors are
/// made for at most its own period). What the app needs to know (an xrun, a new buffer size,
/// the server gone) goes out through ``events``. When the server goes away the app goes on,
/// silent, and says so in one line.
public final class JACKOutput: @unchecked Sendable {
  /// JACK's largest buffer: the mix is this big from the start.
  public static let maximumBufferFrames = 8192

  public let clientName: String
  public let channels: Int
  /// The `midi_in` port, when asked for: a ``MIDIInput`` reads it like any MIDI source.
  public let midiInput: JACKMIDIInput?
  /// Why the server went away, once it has (its own words); nil while it runs.
  public var serverLostReason: String? { self.lostReason.withLock { $0 } }
  /// Events from the process callback, oldest first. [consumer: the app]
  public let events = SPSCRing<Event>(minimumCapacity: 256)
  /// How late each process callback started, in µs after its cycle began (the server's
  /// clock, `jack_get_cycle_times`). Written by the callback only: read it after ``close()``.
  public let lateness = LatenessHistogram(maximumMicroseconds: 100_000)

  let client: OpaquePointer
  let ports: UnsafeMutablePointer<OpaquePointer?>
  private let mix: UnsafeMutablePointer<Float>
  /// Set once, before the callback starts (``activate(rendering:inChunksOf:)``).
  private var renderer: (any AudioRenderer)?
  private var chunkFrames = JACKOutput.maximumBufferFrames
  private let periods = Atomic<Int>(0)
  private let xruns = Atomic<Int>(0)
  private let bufferFrames = Atomic<Int>(0)
  private let sampleRate = Atomic<Int>(0)
  /// The rate the renderer was made for: the server's at activation.
  private let renderRate = Atomic<Int>(0)
  private let silentForRate = Atomic<Int>(0)
  private let lost = Atomic<Bool>(false)
  private let callbackPriority = Atomic<Int>(Int.min)
  private let lostReason = Mutex<String?>(nil)
  private var isOpen = true

  /// Opens a client named `clientName` on the server `serverName` (nil: the default one, or
  /// `$JACK_DEFAULT_SERVER`) with `channels` output ports, `out_1` …, and a MIDI input port
  /// `midi_in` when `midiInput`; nothing plays until ``activate(rendering:inChunksOf:)``.
  public init(
    clientName: String, serverName: String? = nil, channels: Int = 2, midiInput: Bool = false
  ) throws(AudioError) {
    precondition(channels > 0, "a JACK output needs at least one channel")
    JACKMessages.silence()
    var status = jack_status_t(rawValue: 0)
    let opened: OpaquePointer? =
      if let serverName {
        jack_client_open_with_server(clientName, serverName, &status)
      } else {
        jack_client_open_default(clientName, &status)
      }
    guard let client = opened else {
      throw AudioError(JACKStatus(status).openFailure(client: clientName, server: serverName))
    }
    self.client = client
    self.clientName = String(cString: jack_get_client_name(client))
    self.channels = channels
    self.ports = .allocate(capacity: channels)
    self.mix = .allocate(capacity: Self.maximumBufferFrames * channels)
    self.mix.initialize(repeating: 0, count: Self.maximumBufferFrames * channels)
    for channel in 0..<channels {
      let port = jack_port_register(
        client, "out_\(channel + 1)", JACK_DEFAULT_AUDIO_TYPE, UInt(JackPortIsOutput.rawValue), 0)
      guard let port else {
        jack_client_close(client)
        throw AudioError(
          "JACK: the server refused port \(self.clientName):out_\(channel + 1); is the name taken?")
      }
      (self.ports + channel).initialize(to: port)
    }
    if midiInput {
      guard let input = JACKMIDIInput(client: client, clientName: self.clientName) else {
        jack_client_close(client)
        throw AudioError("JACK: the server refused port \(self.clientName):midi_in")
      }
      self.midiInput = input
    } else {
      self.midiInput = nil
    }
    self.bufferFrames.store(Int(jack_get_buffer_size(client)), ordering: .relaxed)
    self.sampleRate.store(Int(jack_get_sample_rate(client)), ordering: .relaxed)
    let context = Unmanaged.passUnretained(self).toOpaque()
    jack_set_process_callback(client, jackProcess, context)
    jack_set_buffer_size_callback(client, jackBufferSize, context)
    jack_set_sample_rate_callback(client, jackSampleRate, context)
    jack_set_xrun_callback(client, jackXrun, context)
    jack_on_info_shutdown(client, jackShutdown, context)
  }

  deinit {
    self.close()
    self.ports.deallocate()
    self.mix.deallocate()
  }

  /// The format the app renders in now: the server's rate and buffer size.
  public var format: AudioFormat {
    AudioFormat(
      sampleRate: self.sampleRate.load(ordering: .relaxed), channels: self.channels,
      periodFrames: self.bufferFrames.load(ordering: .relaxed))
  }

  /// Counts so far. [thread-safe]
  public var statistics: Statistics {
    Statistics(
      periods: self.periods.load(ordering: .relaxed), xruns: self.xruns.load(ordering: .relaxed),
      bufferFrames: self.bufferFrames.load(ordering: .relaxed),
      sampleRate: self.sampleRate.load(ordering: .relaxed),
      serverLost: self.lost.load(ordering: .acquiring),
      silentForRate: self.silentForRate.load(ordering: .relaxed),
      renderRate: self.renderRate.load(ordering: .relaxed))
  }

  /// Starts the process callback: from now on the server calls it once a period, and it
  /// renders with `renderer`, at most `chunkFrames` frames a call. Call it once.
  public func activate(
    rendering renderer: any AudioRenderer, inChunksOf chunkFrames: Int = maximumBufferFrames
  ) throws(AudioError) {
    precondition(self.renderer == nil, "the JACK output is already active")
    precondition(chunkFrames > 0, "a chunk needs at least one frame")
    self.renderer = renderer
    self.chunkFrames = chunkFrames
    self.renderRate.store(self.sampleRate.load(ordering: .relaxed), ordering: .relaxed)
    let code = jack_activate(self.client)
    guard code == 0 else {
      throw AudioError("JACK: the server would not activate \(self.clientName) (code \(code))")
    }
  }

  /// Leaves the server. Safe to call twice, and after the server has gone.
  public func close() {
    guard self.isOpen else { return }
    self.isOpen = false
    self.midiInput?.close()
    if !self.lost.load(ordering: .acquiring) { jack_deactivate(self.client) }
    jack_client_close(self.client)
  }

  /// One period. [audio-thread]: no allocation, no lock, no logging.
  fileprivate func process(frames: Int) {
    self.recordLateness()
    self.midiInput?.take(frames: frames)
    let foreignRate =
      self.sampleRate.load(ordering: .relaxed) != self.renderRate.load(ordering: .relaxed)
    if foreignRate { self.silentForRate.add(1, ordering: .relaxed) }
    guard frames <= Self.maximumBufferFrames, !foreignRate else {
      // Larger than JACK allows today: silence rather than write past the mix. At another
      // rate than the processors were made for: silence rather than every pitch and tempo off
      // (and the periods' frames counted in another clock).
      for channel in 0..<self.channels {
        jack_port_get_buffer(self.ports[channel], jack_nframes_t(frames))?
          .initializeMemory(as: Float.self, repeating: 0, count: frames)
      }
      return
    }
    let samples = frames * self.channels
    self.mix.update(repeating: 0, count: samples)
    let period = self.periods.load(ordering: .relaxed)
    let steadyTime = UInt64(jack_last_frame_time(self.client))
    if let renderer = self.renderer {
      var done = 0
      while done < frames {
        let chunk = min(self.chunkFrames, frames - done)
        renderer.render(
          into: self.mix + done * self.channels, frames: chunk,
          steadyTime: steadyTime + UInt64(done))
        done += chunk
      }
    }
    for channel in 0..<self.channels {
      guard let raw = jack_port_get_buffer(self.ports[channel], jack_nframes_t(frames)) else {
        continue
      }
      let buffer = raw.assumingMemoryBound(to: Float.self)
      for frame in 0..<frames { buffer[frame] = self.mix[frame * self.channels + channel] }
    }
    self.periods.store(period + 1, ordering: .relaxed)
  }

  /// The SCHED_FIFO (or SCHED_RR) priority the server's process thread runs this client at;
  /// 0 when it runs without realtime scheduling, nil before the first period.
  public var callbackThreadPriority: Int? {
    let priority = self.callbackPriority.load(ordering: .relaxed)
    return priority == Int.min ? nil : priority
  }

  /// How long after its cycle began this callback started. [audio-thread]
  private func recordLateness() {
    if self.callbackPriority.load(ordering: .relaxed) == Int.min {
      var policy: Int32 = 0
      var parameters = sched_param()
      pthread_getschedparam(pthread_self(), &policy, &parameters)
      let realtime = policy == SCHED_FIFO || policy == SCHED_RR
      self.callbackPriority.store(realtime ? Int(parameters.sched_priority) : 0, ordering: .relaxed)
    }
    var frames: jack_nframes_t = 0
    var (began, next): (jack_time_t, jack_time_t) = (0, 0)
    var period: Float = 0
    guard jack_get_cycle_times(self.client, &frames, &began, &next, &period) == 0 else { return }
    let now = jack_get_time()
    self.lateness.record(microseconds: now > began ? Int(now - began) : 0)
  }

  fileprivate func bufferSizeChanged(to frames: Int) {
    self.bufferFrames.store(frames, ordering: .relaxed)
    self.events.push(
      Event(kind: .bufferSize, period: self.periods.load(ordering: .relaxed), value: frames))
  }

  fileprivate func sampleRateChanged(to rate: Int) {
    self.sampleRate.store(rate, ordering: .relaxed)
    self.events.push(
      Event(kind: .sampleRate, period: self.periods.load(ordering: .relaxed), value: rate))
  }

  fileprivate func xrun() {
    self.xruns.add(1, ordering: .relaxed)
    self.events.push(Event(kind: .xrun, period: self.periods.load(ordering: .relaxed), value: 0))
  }

  fileprivate func serverLost(reason: String) {
    self.lostReason.withLock { $0 = reason }
    self.lost.store(true, ordering: .releasing)
    self.events.push(
      Event(kind: .serverLost, period: self.periods.load(ordering: .relaxed), value: 0))
  }
}

// The C callbacks: each finds its output in `arg`, which the output outlives (it closes the
// client, which stops the callbacks, before it goes).

private func output(_ arg: UnsafeMutableRawPointer?) -> JACKOutput {
  Unmanaged<JACKOutput>.fromOpaque(arg!).takeUnretainedValue()
}

private let jackProcess: JackProcessCallback = { frames, arg in
  Unmanaged<JACKOutput>.fromOpaque(arg!)._withUnsafeGuaranteedRef {
    $0.process(frames: Int(frames))
  }
  return 0
}

private let jackBufferSize: JackBufferSizeCallback = { frames, arg in
  output(arg).bufferSizeChanged(to: Int(frames))
  return 0
}

private let jackSampleRate: JackSampleRateCallback = { rate, arg in
  output(arg).sampleRateChanged(to: Int(rate))
  return 0
}

private let jackXrun: JackXRunCallback = { arg in
  output(arg).xrun()
  return 0
}

private let jackShutdown: JackInfoShutdownCallback = { _, reason, arg in
  output(arg).serverLost(reason: reason.map { String(cString: $0) } ?? "no reason given")
}
