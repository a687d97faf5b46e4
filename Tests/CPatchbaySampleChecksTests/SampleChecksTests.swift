import CPatchbaySampleChecks
import Testing

@Suite struct CPatchbaySampleChecksTests {
  static let nonfinite: [Float] = [.nan, -.nan, .signalingNaN, .infinity, -.infinity]
  static let finite: [Float] = [
    0, -0.0, 1, -1, .greatestFiniteMagnitude, -.greatestFiniteMagnitude,
    .leastNonzeroMagnitude, .leastNormalMagnitude, 1000,
  ]

  @Test func findsEveryKindOfNonFiniteSampleAnywhere() {
    for bad in Self.nonfinite {
      for position in [0, 1, 127, 255] {
        var samples = [Float](repeating: 0.5, count: 256)
        samples[position] = bad
        #expect(pb_samples_any_nonfinite(samples, samples.count), "\(bad) at \(position)")
      }
    }
  }

  @Test func passesEveryFiniteSample() {
    #expect(!pb_samples_any_nonfinite(Self.finite, Self.finite.count))
    #expect(!pb_samples_any_nonfinite([], 0))
  }

  @Test func silencesOnlyTheNonFiniteSamples() {
    var samples: [Float] = [0.25, .nan, -0.5, .infinity, -.infinity, 1000]
    #expect(pb_samples_silence_nonfinite(&samples, samples.count) == 3)
    #expect(samples == [0.25, 0, -0.5, 0, 0, 1000])
  }

  @Test func clipsToFullScaleAndCountsAndKeepsThePeak() {
    var samples: [Float] = [0.5, 1, -1, 1.5, -1000, 0.99]
    var peak: Float = 0.25
    #expect(pb_samples_clip(&samples, samples.count, &peak) == 2)
    #expect(samples == [0.5, 1, -1, 1, -1, 0.99])
    #expect(peak == 1000)
    // The peak only grows: a quieter period leaves it.
    var quiet: [Float] = [0.1, -0.2]
    #expect(pb_samples_clip(&quiet, quiet.count, &peak) == 0)
    #expect(peak == 1000)
    #expect(quiet == [0.1, -0.2])
  }
}
