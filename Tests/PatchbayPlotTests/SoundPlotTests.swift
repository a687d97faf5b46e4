import Foundation
import PatchbayPlot
import Testing

/// `render --plot`'s picture: written as a PNG that decodes to what was drawn, with each panel
/// showing what the sound holds (a tone's level, its pitch in the spectrum), and bad files
/// named with what is wrong.
@Suite struct SoundPlotTests {
  func temporary(_ name: String) -> String {
    FileManager.default.temporaryDirectory.appendingPathComponent("\(UUID().uuidString)-\(name)")
      .path
  }

  /// `seconds` of a sine at `hertz` and `amplitude`, in both channels, then as much silence.
  func tone(hertz: Double, amplitude: Float, seconds: Double = 1) -> WAVSamples {
    let rate = 48_000
    let frames = Int(seconds * Double(rate))
    let samples = (0..<(2 * frames)).flatMap { frame -> [Float] in
      let sample =
        frame < frames ? amplitude * Float(sin(2 * .pi * hertz * Double(frame) / Double(rate))) : 0
      return [sample, sample]
    }
    return WAVSamples(sampleRate: rate, channels: 2, samples: samples)
  }

  /// How many pixels of `column` (inside a panel) are `color`, between rows `rows`.
  func count(_ image: RGBAImage, column: Int, rows: Range<Int>, _ color: RGBAImage.Color) -> Int {
    rows.filter { image[column, $0] == color }.count
  }

  @Test func aPictureRoundTripsThroughPNG() throws {
    var image = RGBAImage(width: 37, height: 23)
    image.line(from: (0, 22), to: (36, 0), .wave)
    image.text("-12 DB", x: 1, y: 1, .label, scale: 1)
    let path = self.temporary("round.png")
    defer { unlink(path) }
    try PNGFile.write(image, to: path)
    let back = try PNGFile.read(path)
    #expect(back == image)
    #expect(back[0, 22] == .wave && back[36, 0] == .wave && back[36, 22] == .ink)
  }

  @Test func aToneShowsItsLevelItsEndAndItsPitch() throws {
    let image = SoundPlot(self.tone(hertz: 1_000, amplitude: 0.5)).draw()
    #expect(image.width == 1200 && image.height == 900)
    let (left, width, panel) = (70, 1110, 240)
    let tops = [40, 330, 620]
    // Waveform: the tone's half of the render is ±0.5 high, the silent half one line.
    let early = self.count(image, column: left + width / 4, rows: tops[0]..<tops[0] + panel, .wave)
    let late = self.count(
      image, column: left + 3 * width / 4, rows: tops[0]..<tops[0] + panel, .wave)
    #expect(abs(early - panel / 2) <= 3, "the tone spans half the panel: \(early) px")
    #expect(late == 1, "silence is one line: \(late) px")
    // Level: the peak line sits at -6 dBFS (a tenth of the way down 0…-60).
    let peakRow = (tops[1]..<tops[1] + panel).first { image[left + width / 4, $0] == .wave }
    let expected = tops[1] + Int(6.02 / 60 * Double(panel - 1))
    #expect(abs((peakRow ?? 0) - expected) <= 2, "peak row \(peakRow ?? -1), expected \(expected)")
    // Spectrum: the tallest column is at 1 kHz on the pitch axis (30 Hz…16 kHz).
    let heights = (0..<width).map {
      self.count(image, column: left + $0, rows: tops[2]..<tops[2] + panel, .wave)
    }
    let tallest = heights.indices.max { heights[$0] < heights[$1] } ?? 0
    let thousand = Int(log(1_000.0 / 30) / log(16_000.0 / 30) * Double(width - 1))
    #expect(abs(tallest - thousand) <= 6, "tallest at column \(tallest), 1 kHz at \(thousand)")
  }

  @Test func silenceDrawsNoLevelAndNoSpectrum() throws {
    let image = SoundPlot(self.tone(hertz: 440, amplitude: 0)).draw()
    let spectrum = (0..<1110).map { self.count(image, column: 70 + $0, rows: 620..<860, .wave) }
    #expect(spectrum.allSatisfy { $0 == 0 })
    #expect(self.count(image, column: 300, rows: 330..<570, .rms) == 0)
  }

  @Test func aWAVFileReadsBackAsItsSamples() throws {
    let path = self.temporary("short.wav")
    defer { unlink(path) }
    var bytes = Array("RIFF".utf8) + [36 + 8, 0, 0, 0] + Array("WAVEfmt ".utf8)
    bytes += [16, 0, 0, 0, 1, 0, 2, 0, 0x80, 0xBB, 0, 0, 0, 0xEE, 2, 0, 4, 0, 16, 0]
    bytes += Array("data".utf8) + [8, 0, 0, 0] + [0xFF, 0x7F, 0x01, 0x80, 0, 0, 0, 0x40]
    #expect(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
    let wav = try WAVSamples(contentsOf: path)
    #expect(wav.sampleRate == 48_000 && wav.channels == 2 && wav.frames == 2)
    #expect(wav.samples == [1, -1, 0, Float(0x4000) / 32_767])
  }

  @Test(arguments: [
    ("not a wav", "not a WAV file (no RIFF/WAVE header at byte 0)"),
    ("RIFF\u{24}\0\0\0WAVEfmt \u{10}\0\0\0\u{3}\0", "format 3 at byte 20; only PCM (1) is read"),
    ("RIFF\u{4}\0\0\0WAVE", "no data chunk; the file is cut short"),
  ])
  func aBadWAVFileIsNamedWithWhatIsWrong(_ content: String, _ problem: String) throws {
    let path = self.temporary("bad.wav")
    defer { unlink(path) }
    #expect(
      FileManager.default.createFile(
        atPath: path, contents: Data(content.utf8) + Data(repeating: 0, count: 14)))
    #expect(throws: PlotError("\(path): \(problem). Render again.")) {
      try WAVSamples(contentsOf: path)
    }
  }

  @Test func aFileThatIsNotAPNGIsNamed() throws {
    let path = self.temporary("not.png")
    defer { unlink(path) }
    #expect(FileManager.default.createFile(atPath: path, contents: Data("GIF89a, not a PNG".utf8)))
    let error = try #require(throws: PlotError.self) { try PNGFile.read(path) }
    #expect(error.description.hasPrefix("\(path): libspng refused its header: "), "\(error)")
  }
}
