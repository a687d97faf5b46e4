import PatchbayMIDI

/// Arbitrary bytes as a MIDI 1.0 stream (a serial port, a FIFO, `stdin`).
///
/// The block parser's fast paths give the events the byte-by-byte parser gives, however the
/// stream is cut into reads; every event is well formed (channel 0–15, data bytes below 0x80,
/// SysEx chunks of at most 16 bytes).
enum MIDIFuzzing {
  static func check(_ input: [UInt8]) throws(FuzzViolation) {
    guard let seed = input.first else { return }
    let stream = Array(input.dropFirst())

    var byByte = MIDIParser()
    var expected: [MIDIEvent] = []
    for byte in stream { byByte.parse(byte, at: 0) { expected.append($0) } }

    // Reads of 1 to 16 bytes, their lengths from the first byte.
    var blocks = MIDIParser()
    var events: [MIDIEvent] = []
    var start = 0
    var length = Int(seed % 16) + 1
    while start < stream.count {
      let end = min(start + length, stream.count)
      blocks.parse(Array(stream[start..<end])) { events.append($0) }
      start = end
      length = (length * 7 + 3) % 16 + 1
    }
    guard events == expected else {
      throw FuzzViolation(
        .midi,
        "reads of varying length give \(events.count) events, byte by byte "
          + "\(expected.count); first difference: "
          + "\(zip(events, expected).first { $0 != $1 }.map { "\($0.0) vs \($0.1)" } ?? "length")")
    }
    for event in events {
      guard event.channel < 16, event.data.allSatisfy({ $0 < 0x80 }),
        Int(event.count) <= MIDIEvent.sysExChunkSize
      else { throw FuzzViolation(.midi, "malformed event \(event)") }
    }
  }
}
