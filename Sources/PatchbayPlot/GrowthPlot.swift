import Foundation

/// A ``GrowthCurve`` drawn on log–log axes, for docs/BENCHMARKS.md: the median (blue) and the
/// 99th percentile (orange) at each size, a grid line at each power of ten, and the slope.
///
/// ```swift
/// let image = GrowthPlot(curve).draw()     // 800 × 480
/// try PNGFile.write(image, to: "docs/benchmarks/rows-send.png")
/// ```
///
/// On log–log axes a flat cost is a level line and a cost that grows with the size climbs
/// one decade per decade, so the slope can be read off the picture as well as the table.
public struct GrowthPlot {
  public let curve: GrowthCurve
  public static let width = 800
  public static let height = 480
  static let left = 110
  static let top = 70
  static let plotWidth = width - left - 30
  static let plotHeight = height - top - 60

  public init(_ curve: GrowthCurve) { self.curve = curve }

  public func draw() -> RGBAImage {
    var image = RGBAImage(width: Self.width, height: Self.height)
    image.text(self.curve.title, x: 20, y: 14, .label)
    image.text(self.summary, x: 20, y: 36, .label)
    image.fill(x: Self.left, y: Self.top, width: Self.plotWidth, height: Self.plotHeight, .panel)
    let (xs, ys) = (self.decades(self.curve.points.map(\.size)), self.valueDecades)
    for decade in xs {
      let x = self.x(pow(10, Double(decade)), in: xs)
      image.fill(x: x, y: Self.top, width: 1, height: Self.plotHeight, .grid)
      let label = Self.count(pow(10, Double(decade)))
      image.text(label, x: x - label.count * 4, y: Self.top + Self.plotHeight + 8, .label)
    }
    for decade in ys {
      let y = self.y(pow(10, Double(decade)), in: ys)
      image.fill(x: Self.left, y: y, width: Self.plotWidth, height: 1, .grid)
      let label = self.curve.describe(pow(10, Double(decade))).replacingOccurrences(
        of: "µ", with: "U")
      image.text(label, x: Self.left - 10 - label.count * 8, y: y - 5, .label)
    }
    image.text(
      self.curve.size, x: Self.left + Self.plotWidth - self.curve.size.count * 8,
      y: Self.top + Self.plotHeight + 28, .label)
    for (color, value) in [(RGBAImage.Color.second, \GrowthCurve.Point.p99), (.wave, \.p50)] {
      let corners = self.curve.points.filter { $0.size > 0 && $0[keyPath: value] > 0 }.map {
        (self.x($0.size, in: xs), self.y($0[keyPath: value], in: ys))
      }
      for (from, to) in zip(corners, corners.dropFirst()) { image.line(from: from, to: to, color) }
      for (x, y) in corners { image.fill(x: x - 2, y: y - 2, width: 5, height: 5, color) }
    }
    image.text("P50", x: Self.left + Self.plotWidth - 70, y: Self.top + 8, .wave)
    image.text("P99", x: Self.left + Self.plotWidth - 36, y: Self.top + 8, .second)
    return image
  }

  /// `SLOPE 0.02   100000 ROWS COST 1.2× 1 ROW`, or what is missing for it.
  var summary: String {
    guard let slope = self.curve.slope, let growth = self.curve.growth,
      let first = self.curve.points.first, let last = self.curve.points.last
    else { return "ONE SIZE MEASURED: NO SLOPE" }
    return String(format: "SLOPE %.2f   ", slope)
      + "\(Self.count(last.size)) COST \(String(format: "%.2f", growth))× \(Self.count(first.size))"
  }

  /// The powers of ten around `values`, at least two.
  func decades(_ values: [Double]) -> ClosedRange<Int> {
    let logs = values.filter { $0 > 0 }.map(log10)
    let low = Int((logs.min() ?? 0).rounded(.down))
    return low...max(low + 1, Int((logs.max() ?? 1).rounded(.up)))
  }

  var valueDecades: ClosedRange<Int> {
    self.decades(self.curve.points.flatMap { [$0.p50, $0.p99] })
  }

  func x(_ size: Double, in decades: ClosedRange<Int>) -> Int {
    Self.left + Int(Self.fraction(size, decades) * Double(Self.plotWidth - 1))
  }

  func y(_ value: Double, in decades: ClosedRange<Int>) -> Int {
    Self.top + Self.plotHeight - 1
      - Int(Self.fraction(value, decades) * Double(Self.plotHeight - 1))
  }

  static func fraction(_ value: Double, _ decades: ClosedRange<Int>) -> Double {
    (log10(value) - Double(decades.lowerBound)) / Double(decades.upperBound - decades.lowerBound)
  }

  /// A size as the axis shows it: `1`, `100`, `10K`, `1.5M`.
  public static func count(_ value: Double) -> String {
    for (divisor, suffix) in [(1e9, "G"), (1e6, "M"), (1e3, "K")] where value >= divisor {
      let scaled = value / divisor
      return (scaled == scaled.rounded() ? "\(Int(scaled))" : String(format: "%.1f", scaled))
        + suffix
    }
    return value == value.rounded() ? "\(Int(value))" : String(format: "%.1f", value)
  }
}
