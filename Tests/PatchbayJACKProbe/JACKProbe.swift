import CJACK
import PatchbayRealtime
import Synchronization

/// A second JACK client for tests, standing where a musician's other programs would: a MIDI
/// output port (`probe:midi_out`, a keyboard) and audio input ports (`probe:in_N`, a
/// recorder), driven by its own process callback.
///
/// ```swift
/// let probe = try #require(JACKProbe(server: server.name, captureFrames: 48_000))
/// probe.connect("patchbay:out_1", to: "probe:in_1")
/// probe.connect("probe:midi_out", to: "patchbay:midi_in")
/// probe.send([0x90, 60, 100])           // in the probe's next period
/// await eventually { probe.capturedFrames == 48_000 }
/// probe.captured(channel: 0)            // each sample with its JACK frame time
/// ```
///
/// A connected client's output reaches it in the same period, so a captured sample's frame
/// time is the one its producer rendered it for.
public final class JACKProbe: @unchecked Sendable {
  public let client: OpaquePointer
  private let midiOut: OpaquePointer
  private let inputs: [OpaquePointer]
  /// Messages to send, each as its length then its bytes.
  private let outgoing = SPSCRing<UInt8>(minimumCapacity: 1 << 14)
  private let capture: UnsafeMutablePointer<Float>
  private let captureFrames: Int
  /// The JACK frame time of each frame kept: a period the server skipped for the probe (an
  /// xrun) leaves a gap in time, not in the capture.
  private let frameTimes: UnsafeMutablePointer<UInt64>
  private let filled = Atomic<Int>(0)
  private let capturing = Atomic<Bool>(false)

  /// Joins `server` as `name` with `channels` inputs, keeping up to `captureFrames` frames of
  /// each once ``startCapture()`` is called; nil when the server refuses.
  public init?(server: String, name: String = "probe", channels: Int = 2, captureFrames: Int) {
    var status = jack_status_t(rawValue: 0)
    guard let client = jack_client_open_with_server(name, server, &status) else { return nil }
    self.client = client
    self.midiOut = jack_port_register(
      client, "midi_out", JACK_DEFAULT_MIDI_TYPE, UInt(JackPortIsOutput.rawValue), 0)!
    self.inputs = (1...channels).map {
      jack_port_register(
        client, "in_\($0)", JACK_DEFAULT_AUDIO_TYPE, UInt(JackPortIsInput.rawValue), 0)!
    }
    self.captureFrames = captureFrames
    self.capture = .allocate(capacity: captureFrames * channels)
    self.capture.initialize(repeating: 0, count: captureFrames * channels)
    self.frameTimes = .allocate(capacity: captureFrames)
    self.frameTimes.initialize(repeating: 0, count: captureFrames)
    jack_set_process_callback(
      client, probeProcess, Unmanaged.passUnretained(self).toOpaque())
    guard jack_activate(client) == 0 else {
      jack_client_close(client)
      return nil
    }
  }

  deinit {
    self.close()
    self.capture.deallocate()
    self.frameTimes.deallocate()
  }

  private var isOpen = true

  /// Leaves the server.
  public func close() {
    guard self.isOpen else { return }
    self.isOpen = false
    jack_client_close(self.client)
  }

  /// Connects two ports by their full names (`patchbay:out_1`); whether the server did.
  @discardableResult
  public func connect(_ source: String, to destination: String) -> Bool {
    jack_connect(self.client, source, destination) == 0
  }

  /// Queues `message` (one whole MIDI message) for the MIDI output: it goes in the first
  /// period in which `midi_out` is connected.
  public func send(_ message: [UInt8]) {
    precondition((1...7).contains(message.count), "one MIDI message of 1 to 7 bytes")
    let framed = [UInt8(message.count)] + message
    let written = framed.withUnsafeBufferPointer { self.outgoing.writeAll($0) }
    precondition(written, "the probe's outgoing MIDI ring is full")
  }

  /// Starts keeping the input from the next period on.
  public func startCapture() { self.capturing.store(true, ordering: .releasing) }

  /// Frames kept so far (at most `captureFrames`).
  public var capturedFrames: Int { self.filled.load(ordering: .acquiring) }

  /// The frames kept of input `channel`, each with its JACK frame time.
  public func captured(channel: Int) -> [(frameTime: UInt64, sample: Float)] {
    (0..<self.capturedFrames).map {
      (self.frameTimes[$0], self.capture[channel * self.captureFrames + $0])
    }
  }

  /// One period: the queued MIDI out, the inputs in. [the probe's process thread]
  fileprivate func process(frames: Int) {
    if let buffer = jack_port_get_buffer(self.midiOut, jack_nframes_t(frames)) {
      jack_midi_clear_buffer(buffer)
      // Until a connection is in this cycle's graph, what the port sends goes nowhere: the
      // messages wait (a test that sent right after `connect` lost them on a loaded machine).
      let connected = jack_port_connected(self.midiOut) > 0
      while connected, let length = self.outgoing.peek(),
        self.outgoing.availableToRead > Int(length)
      {
        _ = self.outgoing.pop()
        var message = (UInt8(0), UInt8(0), UInt8(0), UInt8(0), UInt8(0), UInt8(0), UInt8(0))
        withUnsafeMutableBytes(of: &message) { bytes in
          for index in 0..<min(Int(length), bytes.count) { bytes[index] = self.outgoing.pop()! }
          _ = jack_midi_event_write(buffer, 0, bytes.baseAddress, Int(length))
        }
      }
    }
    guard self.capturing.load(ordering: .acquiring) else { return }
    let done = self.filled.load(ordering: .relaxed)
    guard done < self.captureFrames else { return }
    let count = min(frames, self.captureFrames - done)
    let start = UInt64(jack_last_frame_time(self.client))
    for frame in 0..<count { self.frameTimes[done + frame] = start + UInt64(frame) }
    for (channel, port) in self.inputs.enumerated() {
      guard let raw = jack_port_get_buffer(port, jack_nframes_t(frames)) else { continue }
      let input = raw.assumingMemoryBound(to: Float.self)
      (self.capture + channel * self.captureFrames + done).update(from: input, count: count)
    }
    self.filled.store(done + count, ordering: .releasing)
  }
}

private let probeProcess: JackProcessCallback = { frames, arg in
  Unmanaged<JACKProbe>.fromOpaque(arg!).takeUnretainedValue().process(frames: Int(frames))
  return 0
}
