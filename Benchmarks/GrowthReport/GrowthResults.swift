import Foundation
import PatchbayPlot

/// The growth curves in a folder of exported results: the benchmark package's
/// `histogramPercentiles` files, one per benchmark and metric, named
/// `<baseline>.GrowthBenchmarks.growth:_<title>_@_<size>_<sizes>.<metric>.histogram.percentiles.tsv`
/// (spaces become `_`), each holding a line `<percentile>\t<value>` per percentile.
struct GrowthResults {
  let curves: [GrowthCurve]

  init(folder: String) throws {
    let files: [String]
    do {
      files = try FileManager.default.contentsOfDirectory(atPath: folder)
    } catch {
      throw PlotError("\(folder): cannot list it (\(error.localizedDescription)).")
    }
    // By benchmark title: what each size measured, by metric.
    var measured: [String: (unit: String, sizes: [Double: [String: [Int: Double]]])] = [:]
    for file in files {
      guard let match = file.wholeMatch(of: Self.name) else { continue }
      let title = String(match.1).replacingOccurrences(of: "_", with: " ")
      let (size, unit, metric) = (Double(match.2)!, String(match.3), String(match.4))
      measured[title, default: (unit, [:])].sizes[size, default: [:]][metric] =
        try Self.percentiles("\(folder)/\(file)")
    }
    var curves: [GrowthCurve] = []
    for (title, benchmark) in measured {
      let metrics = Set(benchmark.sizes.values.flatMap(\.keys))
        .subtracting(["throughput", "mallocCountTotal"])
      for metric in metrics {
        // The wall clock is the benchmark's own curve, with its mallocs; a figure it reports
        // is a curve of its own, named after it, unless it is the only one.
        let named = metric == "wallClock" || metrics.count == 1
        let points = benchmark.sizes.compactMap { size, values -> GrowthCurve.Point? in
          guard let p50 = values[metric]?[50], let p99 = values[metric]?[99] else { return nil }
          let mallocs = metric == "wallClock" ? values["mallocCountTotal"]?[50] : nil
          return .init(size: size, p50: p50, p99: p99, mallocs: mallocs)
        }
        let words = metric.replacingOccurrences(of: "_", with: " ")
        curves.append(
          GrowthCurve(
            title: named ? title : "\(title): \(words)", size: benchmark.unit,
            unit: words.contains("bytes") ? "bytes" : "ns", points: points))
      }
    }
    self.curves = curves.sorted { $0.title < $1.title }
  }

  nonisolated(unsafe) static let name =
    /.*\.GrowthBenchmarks\.growth:_(.+)_@_(\d+)_([a-z]+)\.(.+)\.histogram\.percentiles\.tsv/

  /// The percentile lines of one file, by percentile, in nanoseconds or plain counts: the
  /// package writes each metric in the unit its header names, `Time (wall clock) (ns) *`,
  /// `Malloc (total) (K) *`, `actions held (M) *`.
  static func percentiles(_ path: String) throws -> [Int: Double] {
    guard let text = try? String(contentsOfFile: path, encoding: .utf8),
      let header = text.split(separator: "\n").first
    else {
      throw PlotError("\(path): cannot read it.")
    }
    let scale = try Self.scale(of: String(header), in: path)
    var values: [Int: Double] = [:]
    for line in text.split(separator: "\n").dropFirst() {
      let fields = line.split(separator: "\t")
      if fields.count == 2, let percentile = Int(fields[0]), let value = Double(fields[1]) {
        values[percentile] = value * scale
      }
    }
    return values
  }

  /// What the unit in parentheses at the end of a header multiplies a value by.
  static func scale(of header: String, in path: String) throws -> Double {
    guard let unit = header.firstMatch(of: /\(([^()]+)\) \*$/)?.1 else { return 1 }
    let scales: [Substring: Double] = [
      "ns": 1, "μs": 1e3, "us": 1e3, "ms": 1e6, "s": 1e9, "K": 1e3, "M": 1e6, "G": 1e9,
    ]
    // `Malloc (total) *`: a part of the name, no unit.
    guard let scale = scales[unit] else {
      guard unit.count > 2 else {
        throw PlotError(
          "\(path): its unit (\(unit)) is not one GrowthReport knows. Add it to scales.")
      }
      return 1
    }
    return scale
  }
}
