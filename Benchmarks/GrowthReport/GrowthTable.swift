import Foundation
import PatchbayPlot

/// The growth section of docs/BENCHMARKS.md: one row per curve and its picture, written
/// between `<!-- growth -->` and `<!-- /growth -->` (the rest of the page is left as it is).
struct GrowthTable {
  let curves: [GrowthCurve]

  /// The picture's file name: the title in lower case, words joined by `-`.
  static func picture(_ curve: GrowthCurve) -> String {
    let words = curve.title.lowercased().split { !$0.isLetter && !$0.isNumber }
    return "growth-" + words.joined(separator: "-") + ".png"
  }

  var markdown: String {
    var lines = [
      "| curve | sizes | p50 smallest → largest (p99 at largest) | × | slope | mallocs | floor |",
      "|---|---|---|---|---|---|---|",
    ]
    for curve in self.curves {
      guard let first = curve.points.first, let last = curve.points.last else { continue }
      let sizes = "\(GrowthPlot.count(first.size))–\(GrowthPlot.count(last.size)) \(curve.size)"
      let medians =
        "\(curve.describe(first.p50)) → \(curve.describe(last.p50)) (\(curve.describe(last.p99)))"
      let growth = curve.growth.map { String(format: "%.2f", $0) } ?? "—"
      let slope = curve.slope.map { String(format: "%.2f", $0) } ?? "—"
      let mallocs =
        first.mallocs.map { "\(Int($0)) → \(Int(last.mallocs ?? 0))" } ?? "—"
      let floor =
        GrowthFloor.of(curve).map {
          $0.describe(for: curve)
            + ($0.holds(curve, among: self.curves) ? ": **holds**" : ": **not met**")
        } ?? "—"
      lines.append(
        "| [\(curve.title)](benchmarks/\(Self.picture(curve))) | \(sizes) | \(medians) | \(growth) "
          + "| \(slope) | \(mallocs) | \(floor) |")
    }
    return lines.joined(separator: "\n")
  }

  /// Replaces what is between the markers in `page` with the table.
  func write(into page: String) throws {
    guard var text = try? String(contentsOfFile: page, encoding: .utf8) else {
      throw PlotError("\(page): cannot read it.")
    }
    guard let start = text.range(of: "<!-- growth -->\n"),
      let end = text.range(of: "<!-- /growth -->", range: start.upperBound..<text.endIndex)
    else {
      throw PlotError(
        "\(page): no `<!-- growth -->` … `<!-- /growth -->` markers. Put them where the table goes."
      )
    }
    text.replaceSubrange(start.upperBound..<end.lowerBound, with: self.markdown + "\n")
    do {
      try text.write(toFile: page, atomically: true, encoding: .utf8)
    } catch {
      throw PlotError("\(page): cannot write it (\(error.localizedDescription)).")
    }
  }
}
