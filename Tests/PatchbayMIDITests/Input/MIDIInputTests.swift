import Foundation
import PatchbayMIDI
import PatchbayRealtime
import Testing

@Suite struct MIDIInputTests {
  /// A new FIFO in the temporary folder: its path.
  static func fifo() throws -> String {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent(
      "\(UUID().uuidString).fifo"
    ).path
    try #require(mkfifo(path, 0o600) == 0)
    return path
  }

  /// Bytes written into a FIFO by another process's end arrive as events, timestamped when
  /// read, and the input finishes when the writer closes.
  @Test func aFIFOsBytesBecomeEvents() async throws {
    let path = try Self.fifo()
    defer { unlink(path) }
    let writer = Thread {
      let fd = open(path, O_WRONLY)
      let messages: [[UInt8]] = [[0x90, 60], [100, 0xF8], [62, 0], [0xF0, 0x7D, 0x01, 0xF7]]
      for message in messages {
        _ = message.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        usleep(2_000)
      }
      close(fd)
    }
    writer.start()
    let source = try FileByteSource(path: path)  // blocks until the writer opens
    #expect(source.name == "FIFO \(path)")
    let input = MIDIInput(source: source, keepsRawBytes: true)
    let before = monotonicNanoseconds()
    input.start()
    input.wait()
    var events: [MIDIEvent] = []
    while let event = input.events.pop() { events.append(event) }
    #expect(
      events.map { String($0.description.drop { $0 != " " }.dropFirst()) } == [
        "ch1 note-on 60 100", "- clock", "ch1 note-off 62 0", "- sysex 7D 01 [start] [end]",
      ])
    #expect(events.allSatisfy { $0.timestamp >= before })
    #expect(events.map(\.timestamp) == events.map(\.timestamp).sorted())
    #expect(input.rawBytes?.availableToRead == 10)
    #expect(input.isFinished)
    #expect(input.error == 0)
    #expect(input.dropped == 0)
  }

  /// A live source (a FIFO) whose app does not drain the ring: the reader never waits, and what
  /// does not fit is dropped and counted, the oldest events kept.
  @Test func aLiveSourceTheAppDoesNotDrainDropsAndCountsTheRest() async throws {
    let path = try Self.fifo()
    defer { unlink(path) }
    let sent = 10_000
    let writer = Thread {
      let fd = open(path, O_WRONLY)
      // One note-on each, on channel 1, notes counting up from 0 (mod 128).
      let bytes = (0..<sent).flatMap { [0x90, UInt8($0 % 128), 100] as [UInt8] }
      _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
      close(fd)
    }
    writer.start()
    let input = MIDIInput(source: try FileByteSource(path: path))
    #expect(input.source.isLive)
    input.start()
    input.wait()
    let kept = input.events.availableToRead
    #expect(kept == input.events.capacity)
    #expect(input.dropped == sent - kept)
    var events: [MIDIEvent] = []
    while let event = input.events.pop() { events.append(event) }
    #expect(events.allSatisfy { $0.kind == .noteOn })
    #expect(events.map(\.note) == (0..<kept).map { UInt8($0 % 128) })
  }

  @Test func missingFilesAndDevicesAreOneLineErrors() {
    #expect(
      throws: MIDIError("/nonexistent/in.raw: cannot open for reading: No such file or directory.")
    ) {
      try FileByteSource(path: "/nonexistent/in.raw")
    }
    do {
      _ = try RawMIDISource(device: "hw:7")
      Issue.record("hw:7 opened")
    } catch {
      #expect(error.description.hasPrefix("ALSA rawmidi 'hw:7': "))
    }
  }

  /// Without /dev/snd/seq (CI, containers) the sequencer says why; with it, the port opens.
  @Test func theSequencerPortOrWhyNot() {
    if SequencerSource.isAvailable {
      #expect(throws: Never.self) { try SequencerSource().close() }
    } else {
      #expect(SequencerSource.unavailableReason?.hasPrefix("/dev/snd/seq does not exist") == true)
      do {
        _ = try SequencerSource()
        Issue.record("the sequencer opened without /dev/snd/seq")
      } catch {
        #expect(error.description.hasPrefix("ALSA sequencer: "))
        #expect(error.description.contains("file:, fifo:, stdin and smf: inputs still work."))
      }
    }
  }
}
