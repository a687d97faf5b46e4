import Foundation
import PatchbayMIDI
import Testing

/// Builds Standard MIDI Files byte by byte.
enum SMFBytes {
  static func header(format: UInt16, tracks: UInt16, division: UInt16) -> [UInt8] {
    Array("MThd".utf8) + [0, 0, 0, 6] + be16(format) + be16(tracks) + be16(division)
  }

  static func track(_ body: [UInt8]) -> [UInt8] {
    Array("MTrk".utf8) + be32(UInt32(body.count)) + body
  }

  static func be16(_ value: UInt16) -> [UInt8] { [UInt8(value >> 8), UInt8(value & 0xFF)] }
  static func be32(_ value: UInt32) -> [UInt8] {
    (0..<4).map { UInt8(truncatingIfNeeded: value >> (24 - 8 * $0)) }
  }

  /// A variable-length quantity.
  static func vlq(_ value: Int) -> [UInt8] {
    var bytes = [UInt8(value & 0x7F)]
    var rest = value >> 7
    while rest > 0 {
      bytes.insert(UInt8(rest & 0x7F) | 0x80, at: 0)
      rest >>= 7
    }
    return bytes
  }

  /// Format 1, 480 ticks per quarter: track 0 has the tempo map (120 bpm, then 240 bpm from
  /// tick 960); track 1 has notes at ticks 0, 480, 960, 1440 (the last two with running
  /// status) and a SysEx at 1440.
  static let tempoChanges: [UInt8] =
    header(format: 1, tracks: 2, division: 480)
    + track(
      vlq(0) + [0xFF, 0x51, 3, 0x07, 0xA1, 0x20]  // 500,000 µs per quarter
        + vlq(960) + [0xFF, 0x51, 3, 0x03, 0xD0, 0x90]  // 250,000
        + vlq(0) + [0xFF, 0x2F, 0])
    + track(
      vlq(0) + [0x90, 60, 100]
        + vlq(480) + [0x80, 60, 0]
        + vlq(480) + [0x90, 62, 100]
        + vlq(480) + [62, 0]
        + vlq(0) + [0xF0, 3, 0x7E, 0x01, 0xF7]
        + vlq(0) + [0xFF, 0x2F, 0])
}

@Suite struct StandardMIDIFileTests {
  @Test func eventTimesFollowTheTempoMap() throws {
    let file = try StandardMIDIFile(bytes: SMFBytes.tempoChanges)
    #expect(file.format == 1)
    #expect(file.trackCount == 2)
    #expect(file.ticksPerQuarterNote == 480)
    #expect(file.events.map(\.tick) == [0, 480, 960, 1440, 1440])
    // 120 bpm: 480 ticks = 0.5 s; from tick 960 at 240 bpm: 480 ticks = 0.25 s.
    #expect(
      file.events.map(\.nanoseconds) == [
        0, 500_000_000, 1_000_000_000, 1_250_000_000, 1_250_000_000,
      ])
    #expect(
      file.events.map(\.bytes) == [
        [0x90, 60, 100], [0x80, 60, 0], [0x90, 62, 100], [0x90, 62, 0], [0xF0, 0x7E, 0x01, 0xF7],
      ])
    #expect(file.duration == 1_250_000_000)
  }

  /// Found by the smf fuzzer: an F7 escape of no bytes made an empty event.
  @Test func anEmptyEscapeIsNoEvent() throws {
    let bytes =
      SMFBytes.header(format: 0, tracks: 1, division: 96)
      + SMFBytes.track(
        SMFBytes.vlq(0) + [0xF7, 0] + SMFBytes.vlq(0) + [0xF7, 2, 0xF8, 0xFA]
          + SMFBytes.vlq(0) + [0xFF, 0x2F, 0])
    let file = try StandardMIDIFile(bytes: bytes)
    #expect(file.events.map(\.bytes) == [[0xF8, 0xFA]])
  }

  @Test func formatZeroAndUnknownChunksAreSkipped() throws {
    let bytes =
      SMFBytes.header(format: 0, tracks: 1, division: 96)
      + Array("XFIH".utf8) + [0, 0, 0, 2, 1, 2]  // a chunk this reader does not know
      + SMFBytes.track(SMFBytes.vlq(96) + [0xC0, 5] + SMFBytes.vlq(0) + [0xFF, 0x2F, 0])
    let file = try StandardMIDIFile(bytes: bytes)
    #expect(file.events.map(\.bytes) == [[0xC0, 5]])
    #expect(file.events.map(\.nanoseconds) == [500_000_000])  // a quarter at the default 120 bpm
  }

  static let malformed: [([UInt8], String)] = {
    let header: [UInt8] = SMFBytes.header(format: 0, tracks: 1, division: 96)
    var cases: [([UInt8], String)] = []
    cases.append(
      (Array("RIFF".utf8) + [0, 0, 0, 6], "byte 0: a Standard MIDI File starts with \"MThd\"."))
    cases.append(
      (
        Array(SMFBytes.header(format: 1, tracks: 1, division: 96).prefix(10)),
        "byte 10: expected 2 more byte(s); 0 left."
      ))
    cases.append(
      (
        SMFBytes.header(format: 2, tracks: 1, division: 96),
        "byte 8: format 2 is not supported (format 0 and 1 are)."
      ))
    cases.append(
      (
        SMFBytes.header(format: 0, tracks: 1, division: 0xE728),
        "byte 12: SMPTE time division (0xe728) is not supported; ticks per quarter note are."
      ))
    let twoTracks: [UInt8] =
      SMFBytes.header(format: 0, tracks: 2, division: 96) + SMFBytes.track([0, 0xFF, 0x2F, 0])
    cases.append((twoTracks, "byte 26: the header promises 2 track(s); the file ends after 1."))
    let short: [UInt8] = header + Array("MTrk".utf8) + [0, 0, 0, 50, 0]
    cases.append((short, "byte 18: the chunk says 50 bytes; only 1 are left."))
    cases.append(
      (
        header + SMFBytes.track([0, 60, 100]),
        "byte 23: data byte 0x3c with no running status (expected a status byte)."
      ))
    cases.append(
      (
        header + SMFBytes.track([0, 0x90, 60, 0x90]),
        "byte 25: expected a data byte (below 0x80) of a 0x90 message, found 0x90."
      ))
    cases.append(
      (
        header + SMFBytes.track([0x81, 0x81, 0x81, 0x81, 0x01]),
        "byte 22: a variable-length number is longer than 4 bytes."
      ))
    cases.append(
      (
        header + SMFBytes.track([0, 0xFF, 0x51, 2, 1, 2]),
        "byte 23: a tempo event has 3 bytes, not 2."
      ))
    return cases
  }()

  @Test(arguments: Self.malformed)
  func malformedFilesNameTheByte(_ bytes: [UInt8], _ message: String) {
    #expect(throws: MIDIError(message)) { try StandardMIDIFile(bytes: bytes) }
  }

  @Test func aMissingFileSaysSo() {
    #expect(throws: MIDIError("/nonexistent.mid: cannot read the file.")) {
      try StandardMIDIFile(contentsOf: "/nonexistent.mid")
    }
  }

  /// The player sends each message at its time: never early, in order, each timestamped.
  @Test func thePlayerKeepsTime() async throws {
    let bytes =
      SMFBytes.header(format: 0, tracks: 1, division: 480)
      + SMFBytes.track(
        // 31,250 µs per quarter: 480 ticks = 31.25 ms
        [0xFF, 0x51, 3, 0x00, 0x7A, 0x12].withTempoPrefix
          + SMFBytes.vlq(0) + [0x90, 60, 100] + SMFBytes.vlq(480) + [0x80, 60, 0]
          + SMFBytes.vlq(960) + [0xB0, 7, 90] + SMFBytes.vlq(0) + [0xFF, 0x2F, 0])
    let player = SMFPlayer(file: try StandardMIDIFile(bytes: bytes))
    player.start()
    player.wait()
    var events: [MIDIEvent] = []
    while let event = player.events.pop() { events.append(event) }
    #expect(events.map(\.kind) == [.noteOn, .noteOff, .controlChange])
    let offsets = events.map { Int64($0.timestamp) - Int64(player.startTime) }
    let due: [Int64] = [0, 31_250_000, 93_750_000]
    for (offset, due) in zip(offsets, due) {
      #expect(offset >= due, "played at \(offset) ns, due at \(due) ns")
    }
    #expect(offsets == offsets.sorted())
  }
}

extension Array where Element == UInt8 {
  /// A meta event at delta 0.
  var withTempoPrefix: [UInt8] { [0] + self }
}
