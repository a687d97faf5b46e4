import CALSA
import CPatchbayALSAErrors
import Foundation
import PatchbayRealtime

/// The ALSA sequencer port `patchbay:in`: connect any MIDI source to it (`aconnect`). Its
/// events are turned back into MIDI bytes (`snd_midi_event_decode`) so they go through the
/// same parser as every other source.
///
/// Needs `/dev/snd/seq` (the snd-seq kernel module). Where it is missing, `init` says so and
/// the other sources still work.
public final class SequencerSource: MIDIByteSource, @unchecked Sendable {
  public let name: String
  public let isLive = true
  private let sequencer: OpaquePointer
  private let decoder: OpaquePointer

  /// Whether this machine has an ALSA sequencer device.
  public static var isAvailable: Bool { FileManager.default.fileExists(atPath: "/dev/snd/seq") }

  /// Why the sequencer is unavailable here, or nil.
  public static var unavailableReason: String? {
    Self.isAvailable
      ? nil
      : "/dev/snd/seq does not exist: this machine has no ALSA sequencer (load the snd-seq kernel "
        + "module, or use a machine with sound hardware). file:, fifo:, stdin and smf: inputs still work."
  }

  /// Opens the sequencer as client `patchbay` with an input port `in`.
  public init(clientName: String = "patchbay", portName: String = "in") throws(MIDIError) {
    patchbay_alsa_errors_capture()  // ALSA reports through Patchbay's errors, not stderr
    var sequencer: OpaquePointer?
    let status = snd_seq_open(&sequencer, "default", Int32(SND_SEQ_OPEN_INPUT), 0)
    guard status >= 0, let sequencer else {
      throw MIDIError(
        "ALSA sequencer: \(String(cString: snd_strerror(status))). "
          + (Self.unavailableReason ?? ""))
    }
    snd_seq_set_client_name(sequencer, clientName)
    let port = snd_seq_create_simple_port(
      sequencer, portName, UInt32(SND_SEQ_PORT_CAP_WRITE | SND_SEQ_PORT_CAP_SUBS_WRITE),
      UInt32(SND_SEQ_PORT_TYPE_MIDI_GENERIC | SND_SEQ_PORT_TYPE_APPLICATION))
    var decoder: OpaquePointer?
    guard port >= 0, snd_midi_event_new(256, &decoder) == 0, let decoder else {
      snd_seq_close(sequencer)
      throw MIDIError(
        "ALSA sequencer: cannot create the port \(clientName):\(portName) (\(String(cString: snd_strerror(port))))."
      )
    }
    snd_midi_event_no_status(decoder, 1)  // full status bytes: our parser does running status
    self.sequencer = sequencer
    self.decoder = decoder
    self.name =
      "ALSA sequencer port \(clientName):\(portName) (client \(snd_seq_client_id(sequencer)))"
  }

  public func read(into buffer: UnsafeMutableRawBufferPointer) -> Int {
    while true {
      var event: UnsafeMutablePointer<snd_seq_event_t>?
      let status = snd_seq_event_input(self.sequencer, &event)
      if status == -EINTR || status == -EAGAIN { continue }
      guard status >= 0, let event else { return Int(status) }
      let count = snd_midi_event_decode(
        self.decoder, buffer.baseAddress?.assumingMemoryBound(to: UInt8.self), buffer.count, event)
      if count > 0 { return count }  // events without MIDI bytes (port subscriptions) are skipped
    }
  }

  public func close() {
    snd_midi_event_free(self.decoder)
    snd_seq_close(self.sequencer)
  }
}
