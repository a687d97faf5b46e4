import Foundation

/// A picture of a render: its waveform, its level over time and its spectrum, one panel above
/// the other, for `patchbay render --plot`.
///
/// ```swift
/// let wav = try WAVSamples(contentsOf: "demo.wav")
/// let image = SoundPlot(wav).draw()          // 1200 × 900
/// try PNGFile.write(image, to: "demo.png")
/// ```
///
/// - Waveform: each column's lowest and highest sample, the first channel in blue over the
///   second in orange.
/// - Level: each column's peak (line) and RMS (bars) in dBFS, 0 down to -60; red marks at
///   the top where samples reached full scale.
/// - Spectrum: the average over the render of 2048-sample Hann-windowed frames, 30 Hz to
///   16 kHz on a pitch axis, 0 down to -100 dB.
public struct SoundPlot {
  public let wav: WAVSamples
  public static let width = 1200
  public static let height = 900
  static let left = 70
  static let panelHeight = 240
  static let plotWidth = width - left - 20
  static let tops = [40, 330, 620]

  public init(_ wav: WAVSamples) { self.wav = wav }

  public func draw() -> RGBAImage {
    var image = RGBAImage(width: Self.width, height: Self.height)
    let seconds = Double(self.wav.frames) / Double(max(self.wav.sampleRate, 1))
    image.text(
      String(format: "%.2f S, %d HZ, %d CH", seconds, self.wav.sampleRate, self.wav.channels),
      x: Self.left, y: 12, .label)
    self.drawWaveform(&image, top: Self.tops[0])
    self.drawLevel(&image, top: Self.tops[1])
    self.drawSpectrum(&image, top: Self.tops[2])
    for top in Self.tops.prefix(2) {
      image.text("0 S", x: Self.left, y: top + Self.panelHeight + 8, .label)
      let end = String(format: "%.1f S", seconds)
      image.text(
        end, x: Self.left + Self.plotWidth - end.count * 8, y: top + Self.panelHeight + 8, .label)
    }
    return image
  }

  /// The frames column `x` of the plot covers.
  private func frames(ofColumn x: Int) -> Range<Int> {
    let frames = self.wav.frames
    let start = x * frames / Self.plotWidth
    return start..<max(start + 1, min(frames, (x + 1) * frames / Self.plotWidth))
  }

  private func panel(_ image: inout RGBAImage, top: Int, title: String) {
    image.fill(
      x: Self.left, y: top, width: Self.plotWidth, height: Self.panelHeight, .panel)
    image.text(title, x: Self.left + 8, y: top + 8, .label)
  }

  /// A labelled horizontal grid line at `fraction` of the panel's height from its top.
  private func gridLine(_ image: inout RGBAImage, top: Int, fraction: Double, label: String) {
    let y = top + Int(fraction * Double(Self.panelHeight - 1))
    image.fill(x: Self.left, y: y, width: Self.plotWidth, height: 1, .grid)
    image.text(label, x: Self.left - 8 - label.count * 8, y: y - 5, .label)
  }

  private func drawWaveform(_ image: inout RGBAImage, top: Int) {
    self.panel(&image, top: top, title: "WAVEFORM")
    for (fraction, label) in [(0.0, "+1"), (0.5, "0"), (1.0, "-1")] {
      self.gridLine(&image, top: top, fraction: fraction, label: label)
    }
    guard self.wav.frames > 0 else { return }
    let channels = self.wav.channels
    let height = Double(Self.panelHeight - 1)
    for channel in (0..<min(channels, 2)).reversed() {
      let color: RGBAImage.Color = channel == 0 ? .wave : .second
      for x in 0..<Self.plotWidth {
        var (low, high) = (Float(1), Float(-1))
        for frame in self.frames(ofColumn: x) {
          let sample = self.wav.samples[frame * channels + channel]
          (low, high) = (min(low, sample), max(high, sample))
        }
        let y = { (sample: Float) in top + Int((1 - Double(max(-1, min(1, sample)))) / 2 * height) }
        image.line(from: (Self.left + x, y(high)), to: (Self.left + x, y(low)), color)
      }
    }
  }

  private func drawLevel(_ image: inout RGBAImage, top: Int) {
    self.panel(&image, top: top, title: "LEVEL (DBFS): PEAK, RMS")
    for decibels in stride(from: 0, through: -60, by: -12) {
      self.gridLine(&image, top: top, fraction: Double(-decibels) / 60, label: "\(decibels)")
    }
    guard self.wav.frames > 0 else { return }
    let channels = self.wav.channels
    let y = { (amplitude: Float) -> Int in
      let decibels = Double(Spectrum.decibels(amplitude))
      return top + Int(min(1, max(0, -decibels / 60)) * Double(Self.panelHeight - 1))
    }
    let bottom = top + Self.panelHeight - 1
    var previous: Int?
    for x in 0..<Self.plotWidth {
      var (peak, squares, count) = (Float(0), Float(0), 0)
      for frame in self.frames(ofColumn: x) {
        for channel in 0..<channels {
          let sample = abs(self.wav.samples[frame * channels + channel])
          peak = max(peak, sample)
          squares += sample * sample
          count += 1
        }
      }
      let rms = (squares / Float(max(count, 1))).squareRoot()
      if rms > 0 { image.line(from: (Self.left + x, bottom), to: (Self.left + x, y(rms)), .rms) }
      let peakY = y(peak)
      image.line(from: (Self.left + x, previous ?? peakY), to: (Self.left + x, peakY), .wave)
      previous = peakY
      if peak >= 1 { image.fill(x: Self.left + x, y: top, width: 1, height: 6, .clip) }
    }
  }

  private func drawSpectrum(_ image: inout RGBAImage, top: Int) {
    self.panel(&image, top: top, title: "SPECTRUM (DB), AVERAGE")
    for decibels in stride(from: 0, through: -100, by: -20) {
      self.gridLine(&image, top: top, fraction: Double(-decibels) / 100, label: "\(decibels)")
    }
    let spectrum = Spectrum(
      size: 2048, sampleRate: max(self.wav.sampleRate, 8_000), bands: Self.plotWidth)
    let pitch = { (hertz: Double) in
      log(hertz / spectrum.range.lowerBound)
        / log(spectrum.range.upperBound / spectrum.range.lowerBound)
    }
    for (hertz, label) in [(100.0, "100"), (1_000, "1K"), (10_000, "10K")]
    where spectrum.range.contains(hertz) {
      let x = Self.left + Int(pitch(hertz) * Double(Self.plotWidth - 1))
      image.fill(x: x, y: top, width: 1, height: Self.panelHeight, .grid)
      image.text(label + " HZ", x: x - 8, y: top + Self.panelHeight + 8, .label)
    }
    let channels = self.wav.channels
    let frames = self.wav.frames
    guard frames >= spectrum.size else { return }
    // At most 120 frames, spread evenly over the render.
    let count = min(120, frames / spectrum.size)
    var power = [Float](repeating: 0, count: Self.plotWidth)
    for index in 0..<count {
      let start = index * (frames - spectrum.size) / max(count - 1, 1)
      let block = (start..<start + spectrum.size).map { frame in
        (0..<channels).reduce(Float(0)) { $0 + self.wav.samples[frame * channels + $1] }
          / Float(channels)
      }
      for (band, amplitude) in spectrum.amplitudes(of: block).enumerated() {
        power[band] += amplitude * amplitude / Float(count)
      }
    }
    let bottom = top + Self.panelHeight - 1
    for (x, power) in power.enumerated() where power > 0 {
      let decibels = Double(Spectrum.decibels(power.squareRoot()))
      let y = top + Int(min(1, max(0, -decibels / 100)) * Double(Self.panelHeight - 1))
      image.line(from: (Self.left + x, bottom), to: (Self.left + x, y), .wave)
    }
  }
}
