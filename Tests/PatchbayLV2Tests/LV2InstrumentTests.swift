import Foundation
import PatchbayLV2
import PatchbayLV2Fixtures
import Testing

/// MIDI into an LV2 instrument through its atom input (`queueMIDI(_:at:)`), sample-accurate,
/// with the smallest instrument built here (Plugins/Fixtures/LV2Worker/tone_fixture.c).
struct LV2InstrumentTests {
  @Test func aNoteSoundsFromItsFrameToItsNoteOffsFrame() throws {
    try LV2Fixtures.loadWorker()
    let info = try LV2World.shared.plugin(uri: "urn:patchbay:test:tone")
    #expect(info.classLabel == "Instrument Plugin")
    let tone = try LV2Instance(info, sampleRate: 48_000, maximumFrames: 128)
    #expect(tone.takesMIDI)
    let out = tone.audioOutputs[0]

    #expect([UInt8(0x90), 69, 100].withUnsafeBytes { tone.queueMIDI($0, at: 64) })
    tone.run(frames: 128)
    #expect(tone["note"] == 69)
    #expect((0..<64).allSatisfy { out[$0] == 0 }, "silent before the note's frame")
    #expect(out[64] == 0)  // sin(0): the note starts at frame 64
    #expect(abs(out[65] - 0.5 * sinf(2 * .pi * 440 / 48_000)) < 1e-6)
    #expect((64..<128).contains { abs(out[$0]) > 0.1 })

    // The sequence was emptied after the run: nothing sounds twice, nothing is lost.
    tone.run(frames: 128)
    #expect(tone["note"] == 69)

    #expect([UInt8(0x80), 69, 0].withUnsafeBytes { tone.queueMIDI($0, at: 32) })
    tone.run(frames: 128)
    #expect(tone["note"] == -1)
    #expect((0..<32).contains { abs(out[$0]) > 0.1 })
    #expect((32..<128).allSatisfy { out[$0] == 0 }, "silent from the note-off's frame")
  }

  /// A plugin without a MIDI input takes none; a block's sequence holds what fits, no more.
  @Test func midiThatHasNowhereToGoIsRefused() throws {
    let eq = try LV2Instance(
      LV2World.shared.plugin(uri: "http://gareus.org/oss/lv2/fil4#mono"), sampleRate: 48_000,
      maximumFrames: 128)
    #expect(!eq.takesMIDI)
    #expect(![UInt8(0x90), 60, 100].withUnsafeBytes { eq.queueMIDI($0, at: 0) })

    try LV2Fixtures.loadWorker()
    let tone = try LV2Instance(
      LV2World.shared.plugin(uri: "urn:patchbay:test:tone"), sampleRate: 48_000,
      maximumFrames: 128)
    var queued = 0
    while [UInt8(0x90), 60, 100].withUnsafeBytes({ tone.queueMIDI($0, at: 0) }) { queued += 1 }
    // 8,192 bytes, less the sequence's 16-byte header, in 24-byte events (16 + 3, padded).
    #expect(queued == (LV2Instance.sequenceCapacity - 16) / 24)
    tone.run(frames: 128)
    #expect([UInt8(0x80), 60, 0].withUnsafeBytes { tone.queueMIDI($0, at: 0) })
  }
}
