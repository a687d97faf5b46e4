import Foundation
import Testing

/// `patchbay audio …`, `patchbay midi …`, and `realtime-check`, run as a user would.
@Suite struct AudioMIDICommandTests {
  func temporary(_ name: String) -> String {
    FileManager.default.temporaryDirectory.appendingPathComponent("\(UUID().uuidString)-\(name)")
      .path
  }

  @Test func toneIntoAWAVFile() async throws {
    let wav = self.temporary("tone.wav")
    defer { unlink(wav) }
    let result = try await CLI.run(
      "audio", "tone", "--freq", "440", "--seconds", "0.5", "--device", "file:\(wav)")
    #expect(result.exitCode == 0, "\(result.stderr)")
    #expect(
      result.stdout.contains("device:    WAV file \(wav) (16-bit, through ALSA's file plugin)\n"))
    #expect(result.stdout.contains("format:    48000 Hz, 2 ch, period 128 frames (2.67 ms)\n"))
    // 0.5 s, rounded up to whole periods.
    #expect(result.stdout.contains("frames:    24064 written (188 periods)\n"))
    #expect(result.stdout.contains("underruns: 0\n"))
    let size = try FileManager.default.attributesOfItem(atPath: wav)[.size] as? Int
    #expect(size == 44 + 24_064 * 4)
  }

  @Test func toneOnThePacedNullDevice() async throws {
    let result = try await CLI.run(
      "audio", "tone", "--device", "null", "--seconds", "0.2", "--period", "256")
    #expect(result.exitCode == 0, "\(result.stderr)")
    #expect(
      result.stdout.contains("device:    paced null device (CLOCK_MONOTONIC, plays nothing)\n"))
    #expect(result.stdout.contains("frames:    9728 written (38 periods)\n"))
    #expect(result.stdout.contains("lateness:  p50 "))
  }

  @Test func badAudioArguments() async throws {
    let device = try await CLI.run("audio", "tone", "--device", "hw:9", "--seconds", "0.1")
    #expect(device.exitCode == 1)
    #expect(device.stderr.hasPrefix("Error: ALSA device 'hw:9': "))
    #expect(!device.stderr.contains("ALSA lib"))  // ALSA's own messages stay out of the way
    let usage = try await CLI.run("audio", "tone", "--channels", "0")
    #expect(usage.exitCode == 2)
  }

  @Test func monitorPrintsOneEventPerLine() async throws {
    let file = self.temporary("in.raw")
    defer { unlink(file) }
    try #require(
      FileManager.default.createFile(
        atPath: file, contents: Data([0x90, 60, 100, 62, 0, 0xF8, 0xE1, 0x00, 0x40])))
    let result = try await CLI.run("midi", "monitor", "--input", "file:\(file)", "--raw")
    #expect(result.exitCode == 0, "\(result.stderr)")
    let lines = result.stdout.split(separator: "\n").map(String.init)
    #expect(lines.first == "raw: 90 3C 64 3E 00 F8 E1 00 40")
    #expect(
      lines.dropFirst().map { String($0.drop { $0 != " " }.dropFirst()) } == [
        "ch1 note-on 60 100", "ch1 note-off 62 0", "- clock", "ch2 pitch-bend 0",
      ])
    #expect(
      lines.dropFirst().allSatisfy {
        $0.range(of: #"^\d+\.\d{9} "#, options: .regularExpression) != nil
      })
  }

  @Test func monitorPlaysAStandardMIDIFile() async throws {
    let file = self.temporary("song.mid")
    defer { unlink(file) }
    let header: [UInt8] = Array("MThd".utf8) + [0, 0, 0, 6, 0, 0, 0, 1, 0, 96]
    let track: [UInt8] = [0, 0x90, 64, 90, 48, 0x80, 64, 0, 0, 0xFF, 0x2F, 0]
    try #require(
      FileManager.default.createFile(
        atPath: file,
        contents: Data(header + Array("MTrk".utf8) + [0, 0, 0, UInt8(track.count)] + track)))
    let result = try await CLI.run("midi", "monitor", "--input", "smf:\(file)")
    #expect(result.exitCode == 0, "\(result.stderr)")
    #expect(
      result.stdout.split(separator: "\n").map { String($0.drop { $0 != " " }.dropFirst()) } == [
        "ch1 note-on 64 90", "ch1 note-off 64 0",
      ])
    let broken = self.temporary("broken.mid")
    defer { unlink(broken) }
    try #require(FileManager.default.createFile(atPath: broken, contents: Data(header.prefix(12))))
    let failure = try await CLI.run("midi", "monitor", "--input", "smf:\(broken)")
    #expect(failure.exitCode == 1)
    #expect(failure.stderr == "Error: \(broken): byte 12: expected 2 more byte(s); 0 left.\n")
  }

  @Test func sourcesAndTheSequencerWithoutHardware() async throws {
    let sources = try await CLI.run("midi", "sources")
    #expect(sources.exitCode == 0)
    #expect(sources.stdout.contains("smf:PATH"))
    let seq = try await CLI.run("midi", "monitor", "--input", "seq")
    if FileManager.default.fileExists(atPath: "/dev/snd/seq") {
      #expect(sources.stdout.contains("seq         the ALSA sequencer port patchbay:in"))
    } else {
      #expect(sources.stdout.contains("seq         unavailable: /dev/snd/seq does not exist"))
      #expect(seq.exitCode == 1)
      #expect(seq.stderr.contains("/dev/snd/seq does not exist"))
    }
    let bad = try await CLI.run("midi", "monitor", "--input", "usb")
    #expect(bad.exitCode == 2)
  }

  /// The realtime paths allocate nothing: counted per thread by malloc-interposer.
  @Test func realtimePathsAllocateNothing() async throws {
    let result = try await CLI.run(executable: "realtime-check")
    #expect(result.exitCode == 0, "\(result.stdout)\(result.stderr)")
    #expect(result.stdout.contains("audio thread, 10000 periods after 100 of warm-up ("))
    #expect(
      result.stdout.split(separator: "\n").filter { $0.hasSuffix(": 0 allocation(s)") }.count == 7)
    #expect(result.stdout.contains("JACK process callback, 2000 periods of 64 frames after 100"))
    #expect(
      result.stdout.contains(
        "LV2 plugins run by the host (x42-eq - Parametric Equalizer Mono, x42-comp - Dynamic "
          + "Compressor Stereo, Worker fixture, Tone fixture), 10000 periods of 128 frames each, "
          + "a control moved, work scheduled and a note played every 100: 0 allocation(s)"))
    // The processors' lines, in this process and isolated: the plugins ran, MIDI and
    // parameters reached them, beats came back.
    let processors = result.stdout.split(separator: "\n").filter {
      $0.hasPrefix("audio thread running the Metronome (Swift) and Synth (C) processors")
    }
    #expect(processors.count == 2, "\(result.stdout)")
    #expect(processors.last?.contains(", isolated (the host's side), ") == true)
    for line in processors {
      #expect(!line.contains(" 0 beat events"), "\(result.stdout)")
      #expect(!line.contains(" 0 MIDI events"), "\(result.stdout)")
      #expect(!line.contains(" 0 chords sent"), "\(result.stdout)")
      // With DevTools' sound tap on: the mix copied, each processor measured, and still no
      // allocation on the audio thread.
      #expect(!line.contains(" 0 samples copied"), "\(result.stdout)")
    }
  }
}
