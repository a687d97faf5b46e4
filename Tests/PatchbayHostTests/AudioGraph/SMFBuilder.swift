/// Builds a format-0 Standard MIDI File for tests: tempo 120 BPM (500,000 µs a quarter) and
/// 480 ticks a quarter, so a tick is 1/960 s: 50 frames at 48 kHz.
struct SMFBuilder {
  struct Note {
    var tick: Int
    var length: Int
    var note: UInt8
    var velocity: UInt8 = 100
  }

  static func bytes(_ notes: [Note]) -> [UInt8] {
    var events: [(tick: Int, bytes: [UInt8])] = []
    for note in notes {
      events.append((note.tick, [0x90, note.note, note.velocity]))
      events.append((note.tick + note.length, [0x80, note.note, 0]))
    }
    events.sort { $0.tick < $1.tick }
    var track: [UInt8] = [0x00, 0xFF, 0x51, 0x03, 0x07, 0xA1, 0x20]  // tempo 500,000
    var now = 0
    for event in events {
      track += variableLength(event.tick - now) + event.bytes
      now = event.tick
    }
    track += [0x00, 0xFF, 0x2F, 0x00]
    let header: [UInt8] = [0x4D, 0x54, 0x68, 0x64, 0, 0, 0, 6, 0, 0, 0, 1, 0x01, 0xE0]
    return header + [0x4D, 0x54, 0x72, 0x6B] + bigEndian(UInt32(track.count)) + track
  }

  static func variableLength(_ value: Int) -> [UInt8] {
    var bytes = [UInt8(value & 0x7F)]
    var rest = value >> 7
    while rest > 0 {
      bytes.insert(UInt8(rest & 0x7F) | 0x80, at: 0)
      rest >>= 7
    }
    return bytes
  }

  static func bigEndian(_ value: UInt32) -> [UInt8] {
    [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
  }
}
