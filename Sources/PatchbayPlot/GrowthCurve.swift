import Foundation

/// How a cost grows with a size: a benchmark measured at several sizes, and the slope of the
/// line through its medians on log–log axes — 0 for a cost that stays flat, 1 for one that
/// grows with the size, 2 for one that grows with its square.
///
/// ```swift
/// let curve = GrowthCurve(title: "send to one row", size: "rows", points: [
///   .init(size: 1, p50: 80, p99: 120, mallocs: 0),
///   .init(size: 100_000, p50: 96, p99: 150, mallocs: 0),
/// ])
/// curve.slope    // 0.016: flat
/// curve.growth   // 1.2: the largest size costs 1.2× the smallest
/// ```
public struct GrowthCurve: Equatable, Sendable {
  /// One size measured: its median and 99th percentile (nanoseconds, or the curve's unit) and
  /// its mallocs (median).
  public struct Point: Equatable, Sendable {
    public var size: Double
    public var p50: Double
    public var p99: Double
    public var mallocs: Double?

    public init(size: Double, p50: Double, p99: Double, mallocs: Double? = nil) {
      (self.size, self.p50, self.p99, self.mallocs) = (size, p50, p99, mallocs)
    }
  }

  public var title: String
  /// What the size counts: `rows`, `plugins`, `bytes`.
  public var size: String
  /// What the values are: `ns` (the default), `bytes`.
  public var unit: String
  /// By size, smallest first.
  public private(set) var points: [Point]

  public init(title: String, size: String, unit: String = "ns", points: [Point]) {
    (self.title, self.size, self.unit) = (title, size, unit)
    self.points = points.sorted { $0.size < $1.size }
  }

  /// The least-squares slope of log(p50) against log(size), over the sizes and medians above
  /// 0 (a logarithm needs both: a curve from 0 effects has its 0 in ``growth``, not here); nil
  /// with fewer than two of them.
  public var slope: Double? {
    let logs = self.points.compactMap { point -> (x: Double, y: Double)? in
      guard point.size > 0, point.p50 > 0 else { return nil }
      return (log10(point.size), log10(point.p50))
    }
    guard logs.count >= 2 else { return nil }
    let meanX = logs.map(\.x).reduce(0, +) / Double(logs.count)
    let meanY = logs.map(\.y).reduce(0, +) / Double(logs.count)
    let spread = logs.map { ($0.x - meanX) * ($0.x - meanX) }.reduce(0, +)
    guard spread > 0 else { return nil }
    return logs.map { ($0.x - meanX) * ($0.y - meanY) }.reduce(0, +) / spread
  }

  /// The median at the largest size ÷ the median at the smallest; nil without two sizes.
  public var growth: Double? {
    guard self.points.count >= 2, let first = self.points.first, let last = self.points.last,
      first.p50 > 0
    else { return nil }
    return last.p50 / first.p50
  }

  /// `value` in this curve's unit as a person reads it: `82 ns`, `3.4 µs`, `12 ms`, `2.1 KB`.
  public func describe(_ value: Double) -> String {
    let steps: [(limit: Double, divisor: Double, name: String)] =
      self.unit == "bytes"
      ? [(1e3, 1, "B"), (1e6, 1e3, "KB"), (1e9, 1e6, "MB"), (.infinity, 1e9, "GB")]
      : self.unit == "ns"
        ? [(1e3, 1, "ns"), (1e6, 1e3, "µs"), (1e9, 1e6, "ms"), (.infinity, 1e9, "s")]
        : [(.infinity, 1, self.unit)]
    let step = steps.first { abs(value) < $0.limit } ?? steps[steps.count - 1]
    let scaled = value / step.divisor
    let digits = scaled >= 100 || scaled == scaled.rounded() ? 0 : scaled >= 10 ? 1 : 2
    return String(format: "%.\(digits)f", scaled) + " " + step.name
  }
}
