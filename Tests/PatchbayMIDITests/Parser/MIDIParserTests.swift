import PatchbayMIDI
import Testing

/// One test per rule of docs/ARCHITECTURE.md, "Audio and MIDI" (MIDI bytes), on short byte
/// strings.
@Suite struct MIDIParserTests {
  /// The events `bytes` parse to, as monitor lines without the timestamp.
  func parse(_ bytes: [UInt8]) -> [String] {
    var parser = MIDIParser()
    var lines: [String] = []
    parser.parse(bytes, at: 0) {
      lines.append(String($0.description.drop { $0 != " " }.dropFirst()))
    }
    return lines
  }

  @Test func channelMessages() {
    #expect(parse([0x90, 60, 100, 0x80, 60, 64]) == ["ch1 note-on 60 100", "ch1 note-off 60 64"])
    #expect(
      parse([0xA3, 60, 20, 0xB4, 7, 127, 0xC5, 9, 0xD6, 33]) == [
        "ch4 poly-pressure 60 20", "ch5 control-change 7 127", "ch6 program-change 9",
        "ch7 channel-pressure 33",
      ])
    #expect(
      parse([0xEF, 0x00, 0x40, 0xE0, 0x00, 0x00, 0xE0, 0x7F, 0x7F]) == [
        "ch16 pitch-bend 0", "ch1 pitch-bend -8192", "ch1 pitch-bend 8191",
      ])
  }

  @Test func runningStatus() {
    #expect(
      parse([0x90, 60, 100, 62, 101, 64, 102]) == [
        "ch1 note-on 60 100", "ch1 note-on 62 101", "ch1 note-on 64 102",
      ])
    #expect(
      parse([0xC0, 5, 6, 7]) == [
        "ch1 program-change 5", "ch1 program-change 6", "ch1 program-change 7",
      ])
  }

  @Test func noteOnWithVelocityZeroIsANoteOff() {
    #expect(parse([0x91, 60, 0]) == ["ch2 note-off 60 0"])
  }

  @Test func realTimeBytesAnywhereChangeNothingElse() {
    #expect(
      parse([0x90, 0xF8, 60, 0xFA, 100, 62, 0xFC, 101]) == [
        "- clock", "- start", "ch1 note-on 60 100", "- stop", "ch1 note-on 62 101",
      ])
    #expect(parse([0xFB, 0xFE]) == ["- continue", "- active-sensing"])
  }

  @Test func realTimeBytesInsideSysExLeaveItWhole() {
    #expect(parse([0xF0, 0x7E, 0xF8, 0x09, 0xF7]) == ["- clock", "- sysex 7E 09 [start] [end]"])
  }

  @Test func aStatusByteEndsASysEx() {
    #expect(
      parse([0xF0, 0x01, 0x02, 0x90, 60, 100]) == [
        "- sysex 01 02 [start] [cut off]", "ch1 note-on 60 100",
      ])
    #expect(
      parse([0xF0, 0x01, 0xF0, 0x02, 0xF7]) == [
        "- sysex 01 [start] [cut off]", "- sysex 02 [start] [end]",
      ])
  }

  @Test func sysExComesInBoundedChunks() {
    let data = (0..<40).map { UInt8($0) }
    let events = { () -> [MIDIEvent] in
      var parser = MIDIParser()
      var events: [MIDIEvent] = []
      parser.parse([0xF0] + data + [0xF7], at: 0) { events.append($0) }
      return events
    }()
    #expect(events.map(\.count) == [16, 16, 8])
    #expect(events.map(\.sysExFlags) == [.start, [], .end])
    #expect(events.flatMap(\.data) == data)
  }

  @Test func systemCommonClearsRunningStatus() {
    #expect(
      parse([0x90, 60, 100, 0xF1, 0x25, 62, 100]) == [
        "ch1 note-on 60 100", "- mtc-quarter-frame 37",
      ])
    #expect(
      parse([0x90, 60, 100, 0xF2, 0x10, 0x02, 62, 100]) == [
        "ch1 note-on 60 100", "- song-position 272",
      ])
    #expect(parse([0xF3, 4, 0xF6]) == ["- song-select 4", "- tune-request"])
    #expect(parse([0x90, 60, 100, 0xF7, 62, 100]) == ["ch1 note-on 60 100"])  // F7 with no SysEx
  }

  @Test func undefinedF4AndF5CancelRunningStatus() {
    #expect(
      parse([0x90, 60, 100, 0xF4, 62, 100, 0xB0, 1, 2, 0xF5, 3, 4]) == [
        "ch1 note-on 60 100", "ch1 control-change 1 2",
      ])
  }

  @Test func undefinedF9AndFDAreIgnoredAndKeepRunningStatus() {
    #expect(
      parse([0x90, 60, 100, 0xF9, 62, 100, 0xFD, 64, 0xFD, 100]) == [
        "ch1 note-on 60 100", "ch1 note-on 62 100", "ch1 note-on 64 100",
      ])
  }

  @Test func orphanDataIsIgnored() {
    #expect(parse([60, 100, 0x7F, 0x90, 60, 100]) == ["ch1 note-on 60 100"])
  }

  @Test func resetClearsRunningStatus() {
    #expect(parse([0x90, 60, 100, 0xFF, 62, 100]) == ["ch1 note-on 60 100", "- reset"])
    #expect(parse([0x90, 60, 0xFF, 100]) == ["- reset"])  // the half message is dropped
  }

  @Test func eventsCarryTheTimestampOfTheirLastByte() {
    var parser = MIDIParser()
    var events: [MIDIEvent] = []
    parser.parse([0x90, 60], at: 1_000) { events.append($0) }
    parser.parse([100], at: 2_500) { events.append($0) }
    #expect(events == [MIDIEvent(.noteOn, channel: 0, 60, 100, at: 2_500)])
    #expect(events[0].description == "0.000002500 ch1 note-on 60 100")
  }

  /// Garbage never crashes, and the stream resynchronises at the next status byte.
  @Test(arguments: 0..<20)
  func garbageResynchronises(seed: UInt64) {
    var random = SplitMix64(seed: seed)
    var parser = MIDIParser()
    let junk = (0..<10_000).map { _ in UInt8(truncatingIfNeeded: random.next()) }
    parser.parse(junk, at: 0) { _ in }
    parser.parse([0xF7], at: 0) { _ in }  // end any SysEx the junk left open
    var last: MIDIEvent?
    parser.parse([0x92, 61, 99], at: 7) { last = $0 }
    #expect(last == MIDIEvent(.noteOn, channel: 2, 61, 99, at: 7))
  }
}

/// A small deterministic generator for test data.
struct SplitMix64: RandomNumberGenerator {
  var state: UInt64
  init(seed: UInt64) { self.state = seed }
  mutating func next() -> UInt64 {
    self.state &+= 0x9E37_79B9_7F4A_7C15
    var z = self.state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
