import Foundation
import PatchbayEncoding
import PatchbayHost
import Testing

/// The C Synth's reducer, through the ABI: actions in, state out.
@Suite struct SynthReducerTests {
  func synth() throws -> FeatureHandle {
    let plugin = try BuiltPlugins.loader.load("Synth")
    return try FeatureHandle(feature: plugin.features[0])
  }

  @Test func notesAreHeldUntilLetGo() throws {
    let synth = try self.synth()
    try synth.send(text: "midi(noteOn(channel: 1, note: 60, velocity: 100))")
    try synth.send(text: "midi(noteOn(channel: 2, note: 64, velocity: 90))")
    try synth.send(text: "midi(noteOn(channel: 1, note: 60, velocity: 0))")  // velocity 0: off
    #expect(try synth.stateValue()[field: "held"] == .list([64]))
    #expect(try synth.stateValue()[field: "notesPlayed"] == 2)
    try synth.send(text: "midi(noteOff(channel: 2, note: 64, velocity: 0))")
    #expect(try synth.stateValue()[field: "held"] == .list([]))
    try synth.send(text: "midi(noteOn(channel: 1, note: 61, velocity: 10))")
    try synth.send(text: "allNotesOff")
    #expect(try synth.stateValue()[field: "held"] == .list([]))
  }

  @Test func waveformVolumeAndTheVolumeController() throws {
    let synth = try self.synth()
    try synth.send(text: #"setWaveform(name: "square")"#)
    try synth.send(text: "setVolume(level: 2.5)")  // clamped
    #expect(try synth.stateValue()[field: "waveform"] == "square")
    #expect(try synth.stateValue()[field: "volume"] == 1.0)
    try synth.send(text: "midi(controlChange(channel: 1, controller: 7, value: 127))")
    #expect(try synth.stateValue()[field: "volume"] == 1.0)
    try synth.send(text: "midi(controlChange(channel: 1, controller: 7, value: 0))")
    #expect(try synth.stateValue()[field: "volume"] == 0.0)
    try synth.send(text: "midi(pitchBend(channel: 1, value: -8192))")  // heard, not played
    #expect(synth.failures.isEmpty)
    #expect(try synth.render() == "Synth — square, volume 0%\n0 of 16 voices held, 0 notes played")
  }

  @Test func badActionTextIsRefusedNamingWhatIsWrong() throws {
    let synth = try self.synth()
    let unknown = errorMessage { try synth.send(text: "explode") }
    #expect(unknown.contains("dev.patchbay.synth: unknown action 'explode'"))
    let waveform = errorMessage { try synth.send(text: #"setWaveform(name: "noise")"#) }
    #expect(waveform.contains("no waveform 'noise'; use sine, square, saw or triangle."))
    let syntax = errorMessage { try synth.send(text: "setVolume(level: ") }
    #expect(syntax.contains("cannot parse 'setVolume(level: ': column"))
    #expect(try synth.stateValue()[field: "volume"] == 0.5)  // unchanged
  }

  /// The C text helpers agree with the Swift text form, both ways.
  @Test func actionTextRoundTripsThroughTheCHelpers() throws {
    let synth = try self.synth()
    for text in [
      "midi(noteOn(channel: 1, note: 60, velocity: 100))", #"setWaveform(name: "saw")"#,
      "setVolume(level: 0.25)", "allNotesOff",
    ] {
      let bytes = try synth.parseAction(text)
      #expect(bytes == (try WireValue(parsingAction: text)).bytes, "\(text)")
      #expect(try synth.formatAction(bytes) == text)
    }
  }

  @Test func stateRestoresAndBadStateIsRefused() throws {
    let synth = try self.synth()
    try synth.send(text: "midi(noteOn(channel: 1, note: 70, velocity: 100))")
    try synth.send(text: #"setWaveform(name: "triangle")"#)
    let snapshot = try synth.snapshot()
    let restored = try FeatureHandle(feature: synth.feature, restoring: snapshot)
    #expect(try restored.stateValue() == synth.stateValue())
    let message = errorMessage {
      _ = try FeatureHandle(feature: synth.feature, restoring: [0x72, 1])
    }
    #expect(message.contains("dev.patchbay.synth: cannot restore state: byte"))
  }
}
