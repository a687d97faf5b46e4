import ArgumentParser
import Foundation
import PatchbayAudioDevice
import PatchbayMIDI

/// `patchbay midi`: MIDI input, from the command line.
struct MIDICommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "midi",
    abstract: "List MIDI inputs, and print the events one of them delivers.",
    subcommands: [Sources.self, Monitor.self]
  )

  struct Sources: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "List the inputs --input takes.")

    func run() async throws {
      Terminal.out("file:PATH   raw MIDI bytes from a file")
      Terminal.out(
        "fifo:PATH   raw MIDI bytes from a FIFO (mkfifo PATH), until its writers close it")
      Terminal.out("stdin       raw MIDI bytes from standard input")
      Terminal.out("smf:PATH    a Standard MIDI File (format 0 or 1), played in real time")
      Terminal.out("jack        the JACK client's midi_in port (with --audio jack, the default)")
      if let reason = SequencerSource.unavailableReason {
        Terminal.out("seq         unavailable: \(reason)")
      } else {
        Terminal.out(
          "seq         the ALSA sequencer port patchbay:in (connect a source with aconnect)")
      }
      let ports = RawMIDISource.ports()
      Terminal.out(
        ports.isEmpty
          ? "hw:…        no ALSA rawmidi ports on this machine"
          : "ALSA rawmidi ports (--input hw:C,D,S):")
      for port in ports { Terminal.out("  \(port)") }
    }
  }

  struct Monitor: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Print each MIDI event an input delivers, one per line.",
      discussion: """
        Each line: CLOCK_MONOTONIC seconds.nanoseconds when the bytes were read (for smf:, when \
        the event played), the channel (ch1–ch16, or - for system messages), the kind, and its \
        data in decimal — SysEx in hex, in chunks of up to 16 bytes marked [start], [end], or \
        [cut off] when another status byte ended it:

          12.000512000 ch1 note-on 60 100
          12.000600000 ch3 pitch-bend -8192
          12.000700000 - clock
          12.000800000 - sysex 7E 7F 09 01 [start] [end]

        Kinds: note-off note-on poly-pressure control-change program-change channel-pressure \
        pitch-bend sysex mtc-quarter-frame song-position song-select tune-request clock start \
        continue stop active-sensing reset. A note-on with velocity 0 prints as a note-off. \
        With --raw, each read's bytes are printed first, as `raw: 90 3C 64`.
        """
    )

    @Option(help: "file:PATH, fifo:PATH, stdin, smf:PATH, seq, or hw:CARD[,DEVICE[,SUB]].")
    var input: String

    @Flag(help: "Also print the bytes as read.")
    var raw = false

    func run() async throws {
      let spec: MIDIInputSpec
      do {
        spec = try MIDIInputSpec(self.input)
      } catch {
        throw ValidationError(error.description)
      }
      if case .smf(let path) = spec {
        try await self.play(path)
        return
      }
      let source: any MIDIByteSource
      do {
        guard let opened = try spec.openSource() else { return }
        source = opened
      } catch {
        throw CommandFailure(error.description)
      }
      let midi = MIDIInput(source: source, keepsRawBytes: self.raw)
      midi.start()
      var output = ""
      while true {
        let finished = midi.isFinished
        if let raw = midi.rawBytes, raw.availableToRead > 0 {
          let (first, second) = raw.readableRegions()
          output +=
            "raw: " + (Array(first) + Array(second)).map(MIDIEvent.hex).joined(separator: " ")
            + "\n"
          raw.commitRead(first.count + second.count)
        }
        while let event = midi.events.pop() { output += event.description + "\n" }
        if !output.isEmpty {
          FileHandle.standardOutput.write(Data(output.utf8))
          output = ""
        }
        if finished && midi.events.availableToRead == 0 { break }
        try await Task.sleep(for: .milliseconds(1))
      }
      midi.wait()
      source.close()
      if midi.dropped > 0 {
        Terminal.error("warning: \(midi.dropped) event(s) dropped (the printer fell behind)")
      }
      if midi.error != 0 {
        throw CommandFailure(
          "\(source.name): read failed: \(String(cString: strerror(midi.error))).")
      }
    }

    private func play(_ path: String) async throws {
      let file: StandardMIDIFile
      do {
        file = try StandardMIDIFile(contentsOf: path)
      } catch {
        throw CommandFailure(error.description)
      }
      let player = SMFPlayer(file: file)
      player.start()
      while true {
        let finished = player.isFinished
        var output = ""
        while let event = player.events.pop() { output += event.description + "\n" }
        // Written at once, not buffered: a run killed halfway has printed what it played.
        if !output.isEmpty { FileHandle.standardOutput.write(Data(output.utf8)) }
        if finished && player.events.availableToRead == 0 { break }
        try await Task.sleep(for: .milliseconds(1))
      }
      player.wait()
    }
  }
}
