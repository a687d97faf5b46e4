import Foundation
import PatchbayAudioDevice
import PatchbayAudioGraph
import PatchbayEncoding
import PatchbayHost
import PatchbayMIDI
import Testing

/// The C Synth, played offline from a MIDI file: every note at its frame, at its pitch.
@Suite struct SynthRenderTests {
  static let format = OfflineRenderTests.format
  /// Eight notes, 0.25 s each, at ticks that fall inside periods (not on their edges), with
  /// 0.25 s or more of silence between them.
  static let notes: [SMFBuilder.Note] = zip([60, 64, 67, 72, 69, 57, 76, 48], 0...).map {
    SMFBuilder.Note(tick: $1 * 500 + $1 * 7, length: 240, note: UInt8($0))
  }

  static func renderSong(_ app: AppRuntime) throws -> Data {
    let render = try OfflineRender(app: app, format: Self.format)
    let song = try StandardMIDIFile(bytes: SMFBuilder.bytes(Self.notes))
    let file = temporaryFile("song.wav")
    defer { try? FileManager.default.removeItem(atPath: file) }
    let wav = try WAVFileOutput(path: file, format: Self.format)
    render.run(
      frames: 8 * 25_000 + 24_000, midi: OfflineRender.schedule(song, sampleRate: 48_000),
      into: wav)
    wav.close()
    return try Data(contentsOf: URL(fileURLWithPath: file))
  }

  @Test func everyNoteStartsOnItsFrameAtItsPitch() throws {
    let app = try makeApp("trio")
    let data = try Self.renderSong(app)
    let samples = data.dropFirst(44).withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
    let left = stride(from: 0, to: samples.count, by: 2).map { Double(samples[$0]) }
    var onsets: [Int] = []
    var silent = 480
    for (frame, sample) in left.enumerated() {
      if sample != 0 {
        if silent >= 480 { onsets.append(frame) }
        silent = 0
      } else {
        silent += 1
      }
    }
    // A tick is 50 frames.
    #expect(onsets == Self.notes.map { $0.tick * 50 })
    for (note, onset) in zip(Self.notes, onsets) {
      let expected = 440 * pow(2, (Double(note.note) - 69) / 12)
      let measured = frequency(of: left[onset + 500..<onset + 10_000], sampleRate: 48_000)
      let cents = 1_200 * log2(measured / expected)
      #expect(abs(cents) <= 5, "note \(note.note): \(measured) Hz, \(cents) cents off")
    }
    #expect(try app.state("metronome/synth")[field: "notesPlayed"] == 8)
    #expect(try app.state("metronome/synth")[field: "held"] == .list([]))
  }

  @Test func twoRendersOfASongAreByteIdentical() throws {
    let first = try Self.renderSong(try makeApp("trio"))
    let second = try Self.renderSong(try makeApp("trio"))
    #expect(first.count == 44 + 224_000 * 4)  // 1,750 periods of 128 frames
    let same = first == second  // not #expect's ==: it would diff them byte by byte
    #expect(same, "two renders differ")
  }
}

/// The frequency of a steady tone: upward zero crossings, placed between samples by linear
/// interpolation, counted over the span from the first to the last.
func frequency(of samples: ArraySlice<Double>, sampleRate: Double) -> Double {
  var crossings: [Double] = []
  var previous = samples.first ?? 0
  for (index, sample) in zip(samples.indices, samples).dropFirst() {
    if previous < 0, sample >= 0 {
      crossings.append(Double(index - 1) + -previous / (sample - previous))
    }
    previous = sample
  }
  guard let first = crossings.first, let last = crossings.last, crossings.count > 1 else {
    return 0
  }
  return Double(crossings.count - 1) / (last - first) * sampleRate
}
