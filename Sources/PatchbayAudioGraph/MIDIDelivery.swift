import PatchbayABI
import PatchbayEncoding
import PatchbayMIDI

/// How a MIDI message reaches a listening feature ("patchbay.midi/1", patchbay/host.h): as an
/// action for its reducer, and as a `pb_midi_event` for its processor.
extension MIDIEvent {
  /// `midi(noteOn(channel: 1, note: 60, velocity: 100))`; nil for messages features do not
  /// get (sysex, clock, active sensing, …).
  var action: WireValue? {
    let channel = WireValue.Field("channel", .int(Int64(self.channel) + 1))
    let data = self.data.map { WireValue.int(Int64($0)) }
    func message(_ name: String, _ fields: WireValue.Field...) -> WireValue {
      .case("midi", [WireValue.Field("_0", .case(name, fields))])
    }
    switch self.kind {
    case .noteOn:
      return message(
        "noteOn", channel, .init("note", data[0]), .init("velocity", data[1]))
    case .noteOff:
      return message(
        "noteOff", channel, .init("note", data[0]), .init("velocity", data[1]))
    case .controlChange:
      return message(
        "controlChange", channel, .init("controller", data[0]), .init("value", data[1]))
    case .programChange:
      return message("programChange", channel, .init("program", data[0]))
    case .pitchBend:
      return message("pitchBend", channel, .init("value", .int(Int64(self.pitchBend))))
    case .channelPressure:
      return message("channelPressure", channel, .init("pressure", data[0]))
    case .polyPressure:
      return message(
        "polyPressure", channel, .init("note", data[0]), .init("pressure", data[1]))
    case .start: return message("start")
    case .stop: return message("stop")
    case .continue: return message("continue")
    default: return nil
    }
  }

  /// The bit of a listening mask this message needs: its channel's, or any for start, stop
  /// and continue.
  var channelMask: UInt16 {
    self.kind.hasChannel ? 1 << UInt16(self.channel) : UInt16(PB_MIDI_ALL_CHANNELS)
  }

  /// The message as its processor gets it (status byte first); nil for what features do not
  /// get.
  var processorEvent: pb_midi_event? {
    let status: UInt8
    switch self.kind {
    case .noteOff: status = 0x80
    case .noteOn: status = 0x90
    case .polyPressure: status = 0xA0
    case .controlChange: status = 0xB0
    case .programChange: status = 0xC0
    case .channelPressure: status = 0xD0
    case .pitchBend: status = 0xE0
    case .start: status = 0xFA
    case .continue: status = 0xFB
    case .stop: status = 0xFC
    default: return nil
    }
    let count = Int(self.count)
    return pb_midi_event(
      frame: 0, size: UInt8(1 + count),
      bytes: (
        status | (self.kind.hasChannel ? self.channel : 0), count > 0 ? self[data: 0] : 0,
        count > 1 ? self[data: 1] : 0
      ))
  }
}
