import Foundation
import PatchbayPlot
import Testing

/// A growth curve's slope is the power its cost grows with, read on log–log axes; its
/// growth is the largest size's median over the smallest's.
@Suite struct GrowthCurveTests {
  func curve(_ cost: (Double) -> Double, sizes: [Double] = [1, 10, 100, 1_000]) -> GrowthCurve {
    GrowthCurve(
      title: "t", size: "rows",
      points: sizes.map { .init(size: $0, p50: cost($0), p99: 2 * cost($0)) })
  }

  @Test func theSlopeIsThePowerTheCostGrowsWith() throws {
    #expect(try #require(self.curve { _ in 80 }.slope) == 0)
    #expect(abs(try #require(self.curve { 3 * $0 }.slope) - 1) < 1e-9)
    #expect(abs(try #require(self.curve { $0 * $0 + 0 }.slope) - 2) < 1e-9)
    // O(log N) is under a tenth of a decade per decade over these sizes.
    #expect(try #require(self.curve { 50 + 10 * log2($0 + 1) }.slope) < 0.25)
  }

  @Test func growthComparesTheLargestSizeWithTheSmallest() throws {
    // Given out of order, kept by size.
    let curve = GrowthCurve(
      title: "t", size: "rows",
      points: [.init(size: 100, p50: 150, p99: 200), .init(size: 1, p50: 100, p99: 120)])
    #expect(curve.points.map(\.size) == [1, 100])
    #expect(curve.growth == 1.5)
  }

  @Test func aCurveWithoutTwoUsableSizesHasNoSlope() throws {
    #expect(self.curve({ $0 }, sizes: [10]).slope == nil)
    #expect(self.curve({ $0 }, sizes: [10]).growth == nil)
    #expect(self.curve({ $0 - 1 }, sizes: [1, 10]).slope == nil)  // a median of 0
    // A size of 0 is left out of the slope, not of the growth.
    let fromZero = self.curve({ 10 + $0 }, sizes: [0, 10, 100])
    #expect(abs(try #require(fromZero.slope) - log10(110.0 / 20) / 1) < 1e-9)
    #expect(fromZero.growth == 11)
    #expect(self.curve({ _ in 5 }, sizes: [10, 10]).slope == nil)  // one size twice
  }

  @Test func valuesAreDescribedInTheirUnit() {
    let time = self.curve { $0 }
    #expect(time.describe(82) == "82 ns")
    #expect(time.describe(3_400) == "3.40 µs")
    #expect(time.describe(12_500_000) == "12.5 ms")
    #expect(time.describe(2e9) == "2 s")
    let memory = GrowthCurve(title: "t", size: "instances", unit: "bytes", points: [])
    #expect(memory.describe(1_536) == "1.54 KB")
    #expect(memory.describe(2_000_000) == "2 MB")
  }
}
