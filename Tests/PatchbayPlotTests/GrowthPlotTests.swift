import Testing

@testable import PatchbayPlot

/// The growth plot puts each point where log–log axes say: a flat cost on one row of pixels,
/// a linear one a decade up for each decade across, the 99th percentile above the median.
@Suite struct GrowthPlotTests {
  let sizes: [Double] = [1, 10, 100, 1_000]

  func plot(_ cost: (Double) -> Double) -> GrowthPlot {
    GrowthPlot(
      GrowthCurve(
        title: "rows: send to one row", size: "rows",
        points: self.sizes.map { .init(size: $0, p50: cost($0), p99: 4 * cost($0)) }))
  }

  @Test func aFlatCostIsALevelLine() {
    let plot = self.plot { _ in 100 }
    let image = plot.draw()
    #expect(image.width == GrowthPlot.width && image.height == GrowthPlot.height)
    let ys = plot.valueDecades
    let level = plot.y(100, in: ys)
    for size in self.sizes {
      #expect(image[plot.x(size, in: plot.decades(self.sizes)), level] == .wave)
    }
    // p99, four times the median, is drawn above it.
    #expect(plot.y(400, in: ys) < level)
    #expect(image[plot.x(10, in: plot.decades(self.sizes)), plot.y(400, in: ys)] == .second)
    #expect(plot.summary.hasPrefix("SLOPE 0.00"))
  }

  @Test func aLinearCostClimbsADecadePerDecade() {
    let plot = self.plot { 100 * $0 }
    let image = plot.draw()
    let (xs, ys) = (plot.decades(self.sizes), plot.valueDecades)
    let points = self.sizes.map { (plot.x($0, in: xs), plot.y(100 * $0, in: ys)) }
    for (x, y) in points { #expect(image[x, y] == .wave) }
    let steps = zip(points, points.dropFirst()).map { ($1.0 - $0.0, $0.1 - $1.1) }
    // As many decades up as across: the pixels per decade differ between the axes only.
    let (across, up) = (Double(steps[0].0), Double(steps[0].1))
    let perDecadeAcross = Double(GrowthPlot.plotWidth - 1) / Double(xs.count - 1)
    let perDecadeUp = Double(GrowthPlot.plotHeight - 1) / Double(ys.count - 1)
    #expect(abs(across - perDecadeAcross) <= 1 && abs(up - perDecadeUp) <= 1)
    #expect(plot.summary == "SLOPE 1.00   1K COST 1000.00× 1")
  }

  @Test func oneSizeIsDrawnAndSaysItHasNoSlope() {
    let plot = GrowthPlot(
      GrowthCurve(title: "t", size: "rows", points: [.init(size: 1, p50: 80, p99: 90)]))
    #expect(plot.summary == "ONE SIZE MEASURED: NO SLOPE")
    let image = plot.draw()
    #expect(image[plot.x(1, in: plot.decades([1])), plot.y(80, in: plot.valueDecades)] == .wave)
  }

  @Test func sizesAreShortOnTheAxis() {
    #expect(GrowthPlot.count(1) == "1")
    #expect(GrowthPlot.count(100_000) == "100K")
    #expect(GrowthPlot.count(1_000_000) == "1M")
    #expect(GrowthPlot.count(1_500) == "1.5K")
  }
}
