import CALSA
import PatchbayMIDI
import Testing

/// The parser against ALSA's own MIDI byte encoder, `snd_midi_event_encode_byte`, on 10^6
/// random bytes per seed. The two must report the same messages, in the same order, after the
/// documented normalisations:
/// - ALSA reports a note-on with velocity 0 as such; the parser as a note-off.
/// - ALSA's FF (reset) leaves running status alone; the parser clears it — so the test resets
///   ALSA's encoder after an FF outside SysEx.
/// - ALSA drops a SysEx that another status byte cuts off; the parser reports it with the
///   `cutOff` flag — so those are left out. ALSA reports a SysEx whole, F0 and F7 included
///   (its buffer is made larger than any here); the parser's chunks are joined.
@Suite struct ALSADifferentialTests {
  @Test(arguments: [1, 2, 3] as [UInt64])
  func sameMessagesAsALSA(seed: UInt64) throws {
    var random = SplitMix64(seed: seed)
    // Status bytes a little more often than uniform, so messages are longer than one byte.
    let bytes = (0..<1_000_000).map { _ -> UInt8 in
      let value = random.next()
      return value % 4 == 0
        ? UInt8(truncatingIfNeeded: value >> 8) | 0x80
        : UInt8(truncatingIfNeeded: value >> 8) & 0x7F
    }

    var ours: [String] = []
    var parser = MIDIParser()
    var sysEx: [UInt8] = []
    for byte in bytes {
      parser.parse(byte, at: 0) { event in
        if event.kind == .sysEx {
          if event.sysExFlags.contains(.start) { sysEx = [] }
          sysEx += event.data
          if event.sysExFlags.contains(.end) {
            ours.append("sysex " + hex([0xF0] + sysEx + [0xF7]))
          }
          return
        }
        ours.append(Self.line(event))
      }
    }

    var encoder: OpaquePointer?
    #expect(snd_midi_event_new(1 << 20, &encoder) == 0)
    defer { snd_midi_event_free(encoder) }
    var theirs: [String] = []
    var inSysEx = false
    for byte in bytes {
      var event = snd_seq_event_t()
      if snd_midi_event_encode_byte(encoder, Int32(byte), &event) == 1, let line = Self.line(event)
      {
        theirs.append(line)
      }
      if byte >= 0x80 && byte < 0xF8 { inSysEx = byte == 0xF0 }
      if byte == 0xFF && !inSysEx { snd_midi_event_reset_encode(encoder) }
    }
    #expect(ours.count > 100_000)
    #expect(ours.count == theirs.count)
    let firstDifference = zip(ours, theirs).enumerated().first { $0.element.0 != $0.element.1 }
    #expect(
      firstDifference == nil,
      "message \(firstDifference?.offset ?? 0): ours \(firstDifference?.element.0 ?? ""), ALSA's \(firstDifference?.element.1 ?? "")"
    )
  }

  static func line(_ event: MIDIEvent) -> String {
    switch event.kind {
    case .noteOn, .noteOff, .polyPressure, .controlChange:
      "\(event.kind.name) \(event.channel) \(event[data: 0]) \(event[data: 1])"
    case .programChange, .channelPressure:
      "\(event.kind.name) \(event.channel) \(event[data: 0])"
    case .pitchBend: "pitch-bend \(event.channel) \(event.pitchBend)"
    case .songPosition: "song-position \(event.songPosition)"
    case .timeCodeQuarterFrame, .songSelect: "\(event.kind.name) \(event[data: 0])"
    default: event.kind.name
    }
  }

  static func line(_ event: snd_seq_event_t) -> String? {
    var event = event
    let type = UInt32(event.type)
    switch type {
    case SND_SEQ_EVENT_NOTEON.rawValue, SND_SEQ_EVENT_NOTEOFF.rawValue,
      SND_SEQ_EVENT_KEYPRESS.rawValue:
      let note = event.data.note
      let name =
        type == SND_SEQ_EVENT_KEYPRESS.rawValue
        ? "poly-pressure"
        : type == SND_SEQ_EVENT_NOTEOFF.rawValue || note.velocity == 0 ? "note-off" : "note-on"
      return "\(name) \(note.channel) \(note.note) \(note.velocity)"
    case SND_SEQ_EVENT_CONTROLLER.rawValue:
      return
        "control-change \(event.data.control.channel) \(event.data.control.param) \(event.data.control.value)"
    case SND_SEQ_EVENT_PGMCHANGE.rawValue:
      return "program-change \(event.data.control.channel) \(event.data.control.value)"
    case SND_SEQ_EVENT_CHANPRESS.rawValue:
      return "channel-pressure \(event.data.control.channel) \(event.data.control.value)"
    case SND_SEQ_EVENT_PITCHBEND.rawValue:
      return "pitch-bend \(event.data.control.channel) \(event.data.control.value)"
    case SND_SEQ_EVENT_SONGPOS.rawValue: return "song-position \(event.data.control.value)"
    case SND_SEQ_EVENT_QFRAME.rawValue: return "mtc-quarter-frame \(event.data.control.value)"
    case SND_SEQ_EVENT_SONGSEL.rawValue: return "song-select \(event.data.control.value)"
    case SND_SEQ_EVENT_TUNE_REQUEST.rawValue: return "tune-request"
    case SND_SEQ_EVENT_CLOCK.rawValue: return "clock"
    case SND_SEQ_EVENT_START.rawValue: return "start"
    case SND_SEQ_EVENT_CONTINUE.rawValue: return "continue"
    case SND_SEQ_EVENT_STOP.rawValue: return "stop"
    case SND_SEQ_EVENT_SENSING.rawValue: return "active-sensing"
    case SND_SEQ_EVENT_RESET.rawValue: return "reset"
    case SND_SEQ_EVENT_SYSEX.rawValue:
      let length = Int(event.data.ext.len)
      let bytes = withUnsafePointer(to: &event.data.ext) { ext in
        UnsafeRawBufferPointer(start: ext.pointee.ptr, count: length)
      }
      return "sysex " + hex(Array(bytes))
    default: return nil
    }
  }
}

func hex(_ bytes: [UInt8]) -> String {
  bytes.map { String($0, radix: 16, uppercase: true) }.map { $0.count == 1 ? "0" + $0 : $0 }.joined(
    separator: " ")
}
