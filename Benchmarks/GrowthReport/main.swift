import Foundation
import PatchbayPlot

// Draws the growth curves of one `make bench` run and writes their table into
// docs/BENCHMARKS.md (between `<!-- growth -->` and `<!-- /growth -->`):
//
//   swift package --disable-sandbox benchmark --target GrowthBenchmarks \
//     --format histogramPercentiles --path ../.build/growth
//   swift run -c release GrowthReport ../.build/growth ../docs
//
// Each curve is one PNG in docs/benchmarks/ on log–log axes, and one row of the table: its
// median at the smallest and the largest size, their ratio, the slope, the mallocs, and the
// floor the curve is held to (docs/BENCHMARKS.md, "Growth"), judged.

let arguments = CommandLine.arguments.dropFirst()
guard arguments.count == 2, let results = arguments.first, let docs = arguments.last else {
  FileHandle.standardError.write(Data("usage: GrowthReport RESULTS-FOLDER DOCS-FOLDER\n".utf8))
  exit(2)
}

do {
  let curves = try GrowthResults(folder: results).curves
  guard !curves.isEmpty else {
    throw PlotError(
      "\(results): no growth results. Run the GrowthBenchmarks with --format "
        + "histogramPercentiles --path \(results) first (make bench does).")
  }
  let pictures = URL(fileURLWithPath: docs).appendingPathComponent("benchmarks")
  try FileManager.default.createDirectory(at: pictures, withIntermediateDirectories: true)
  for curve in curves {
    try PNGFile.write(
      GrowthPlot(curve).draw(), to: pictures.appendingPathComponent(GrowthTable.picture(curve)).path
    )
  }
  let page = URL(fileURLWithPath: docs).appendingPathComponent("BENCHMARKS.md").path
  try GrowthTable(curves: curves).write(into: page)
  let failing = curves.filter { GrowthFloor.of($0)?.holds($0, among: curves) == false }
  print("growth: \(curves.count) curves drawn into \(pictures.path), their table into \(page)")
  for curve in failing {
    print("growth: floor not met: \(curve.title): \(GrowthFloor.of(curve)!.describe(for: curve))")
  }
} catch {
  FileHandle.standardError.write(Data("GrowthReport: \(error)\n".utf8))
  exit(1)
}
