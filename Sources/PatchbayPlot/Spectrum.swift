import Foundation

/// The spectrum of a block of samples, as DevTools' page and `render --plot` draw it: a Hann
/// window, a radix-2 FFT, and the magnitudes gathered into bands spaced evenly in pitch, in
/// dB below full scale.
///
/// ```swift
/// let bands = Spectrum(size: 2048, sampleRate: 48_000, bands: 64)
/// bands.levels(of: lastSamples)     // [-92.0, -87.5, …, -6.1, …]: 64 values, 30 Hz up
/// ```
public struct Spectrum: Sendable {
  public let size: Int
  public let sampleRate: Int
  /// Each band's first and last bin.
  public let bands: [ClosedRange<Int>]
  /// The lowest and highest frequencies the bands cover, in Hz.
  public let range: ClosedRange<Double>
  private let window: [Float]

  public init(size: Int = 2048, sampleRate: Int, bands count: Int = 64, lowest: Double = 30) {
    precondition(size > 0 && size & (size - 1) == 0, "the FFT's size is a power of two")
    self.size = size
    self.sampleRate = sampleRate
    self.window = (0..<size).map {
      Float(0.5 - 0.5 * cos(2 * Double.pi * Double($0) / Double(size)))
    }
    let highest = min(16_000, Double(sampleRate) / 2)
    self.range = lowest...highest
    let binWidth = Double(sampleRate) / Double(size)
    self.bands = (0..<count).map { band in
      let low = lowest * pow(highest / lowest, Double(band) / Double(count))
      let high = lowest * pow(highest / lowest, Double(band + 1) / Double(count))
      let first = max(1, Int(low / binWidth))
      return first...max(first, min(size / 2 - 1, Int(high / binWidth)))
    }
  }

  /// Each band's level in dB (a full-scale sine is about 0), from -120 up.
  public func levels(of samples: [Float]) -> [Float] {
    self.amplitudes(of: samples).map(Self.decibels)
  }

  /// Each band's loudest bin, as an amplitude (a full-scale sine is about 1).
  public func amplitudes(of samples: [Float]) -> [Float] {
    precondition(samples.count == self.size)
    var real = zip(samples, self.window).map { $0 * $1 }
    var imaginary = [Float](repeating: 0, count: self.size)
    Self.transform(&real, &imaginary)
    let scale = Float(self.size) / 4  // the Hann window's gain, and one side of the spectrum
    return self.bands.map { bins in
      let peak =
        bins.map { (real[$0] * real[$0] + imaginary[$0] * imaginary[$0]).squareRoot() }
        .max() ?? 0
      return peak / scale
    }
  }

  /// An amplitude in dB, from -120 up.
  public static func decibels(_ amplitude: Float) -> Float {
    max(-120, 20 * log10(max(amplitude, 1e-6)))
  }

  /// An in-place iterative radix-2 FFT.
  static func transform(_ real: inout [Float], _ imaginary: inout [Float]) {
    let n = real.count
    var j = 0
    for i in 1..<n {
      var bit = n >> 1
      while j & bit != 0 {
        j ^= bit
        bit >>= 1
      }
      j |= bit
      if i < j {
        real.swapAt(i, j)
        imaginary.swapAt(i, j)
      }
    }
    var length = 2
    while length <= n {
      let angle = -2 * Float.pi / Float(length)
      for start in stride(from: 0, to: n, by: length) {
        for k in 0..<length / 2 {
          let (wr, wi) = (cos(angle * Float(k)), sin(angle * Float(k)))
          let (a, b) = (start + k, start + k + length / 2)
          let tr = real[b] * wr - imaginary[b] * wi
          let ti = real[b] * wi + imaginary[b] * wr
          real[b] = real[a] - tr
          imaginary[b] = imaginary[a] - ti
          real[a] += tr
          imaginary[a] += ti
        }
      }
      length <<= 1
    }
  }
}
