import CJACK
import PatchbayMIDI
import PatchbayRealtime
import Synchronization

/// A JACK client's MIDI input port (`patchbay:midi_in`), as a byte source for ``MIDIInput``:
/// what a keyboard or a sequencer patched into it sends reaches the app as ALSA's sequencer's
/// messages do, through the same reader, parser and pump.
///
/// ```swift
/// let output = try JACKOutput(clientName: "patchbay", midiInput: true)
/// let midi = MIDIInput(source: output.midiInput!)   // jack_connect a2j:… patchbay:midi_in
/// midi.start()
/// ```
///
/// The process callback copies each period's messages, whole, into a byte ring and rings a
/// doorbell ([audio-thread]: no allocation, no lock); the reader thread's `read` takes them
/// from there. A message that does not fit (the app has fallen far behind) is dropped whole
/// and counted, so the parser never sees half of one.
public final class JACKMIDIInput: MIDIByteSource, @unchecked Sendable {
  public let name: String
  public let isLive = true
  /// Messages dropped because the ring was full.
  public var dropped: Int { self.droppedMessages.load(ordering: .relaxed) }
  /// Messages copied from the port so far.
  public var received: Int { self.receivedMessages.load(ordering: .relaxed) }

  let port: OpaquePointer
  private let bytes = SPSCRing<UInt8>(minimumCapacity: 1 << 16)
  private let doorbell = Doorbell()
  private let droppedMessages = Atomic<Int>(0)
  private let receivedMessages = Atomic<Int>(0)
  private let closed = Atomic<Bool>(false)

  /// Registers `midi_in` on `client`; nil when the server refuses it.
  init?(client: OpaquePointer, clientName: String) {
    guard
      let port = jack_port_register(
        client, "midi_in", JACK_DEFAULT_MIDI_TYPE, UInt(JackPortIsInput.rawValue), 0)
    else { return nil }
    self.port = port
    self.name = "JACK port \(clientName):midi_in"
  }

  /// The full name of the port, for `jack_connect`.
  public var portName: String { String(cString: jack_port_name(self.port)) }

  /// Copies this period's messages into the ring. [audio-thread]
  func take(frames: Int) {
    guard let buffer = jack_port_get_buffer(self.port, jack_nframes_t(frames)) else { return }
    let count = jack_midi_get_event_count(buffer)
    guard count > 0 else { return }
    var event = jack_midi_event_t()
    var taken = 0
    // A while loop: a `for` over a Range<UInt32> allocates on every step in a debug build.
    var index: UInt32 = 0
    while index < count {
      defer { index += 1 }
      guard jack_midi_event_get(&event, buffer, index) == 0, let data = event.buffer else {
        continue
      }
      let message = UnsafeBufferPointer(start: data, count: event.size)
      if self.bytes.writeAll(message) {
        taken += 1
      } else {
        self.droppedMessages.add(1, ordering: .relaxed)
      }
    }
    if taken > 0 {
      self.receivedMessages.add(taken, ordering: .relaxed)
      self.doorbell.ring()
    }
  }

  /// Waits for bytes and copies them. [MIDI reader thread] 0 once closed.
  public func read(into buffer: UnsafeMutableRawBufferPointer) -> Int {
    let destination = buffer.bindMemory(to: UInt8.self)
    while true {
      let count = self.bytes.read(into: destination)
      if count > 0 { return count }
      if self.closed.load(ordering: .acquiring) { return 0 }
      self.doorbell.wait(nanoseconds: 50_000_000)
    }
  }

  /// Ends the reader's `read` (the port goes with its client).
  public func close() {
    self.closed.store(true, ordering: .releasing)
    self.doorbell.ring()
  }
}
