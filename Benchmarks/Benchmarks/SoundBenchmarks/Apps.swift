import BenchmarkSupport
import Foundation
import PatchbayConfig
import PatchbayHost
import PatchbayLoader

/// The repository root, for the demo song.
let repositoryRoot = BenchmarkRun.repositoryRoot
/// The root's build (release; debug in a smoke run), for its plugins.
let pluginFolder = BenchmarkRun.rootBuild.path

/// An app of a metronome with `synths` Synth instances in a collection under it.
func studio(
  synths: Int, extraPlugins: [String] = [], extraFeatures: String = "", isolated: Bool = false
) -> AppRuntime {
  let ids = (1...max(synths, 1)).map { "\"s\($0)\"" }.joined(separator: ", ")
  let text = """
    [app]
    root = "metronome"
    [plugins]
    load = ["Metronome", "Synth"\(extraPlugins.map { ", \"\($0)\"" }.joined())]
    isolate = [\(isolated ? "\"all\"" : "")]
    [[feature]]
    key = "metronome"
    id = "dev.patchbay.metronome"
    [[feature]]
    key = "synths"
    id = "dev.patchbay.synth"
    parent = "metronome"
    kind = "collection"
    ids = [\(synths == 0 ? "" : ids)]
    \(extraFeatures)
    """
  do {
    let config = try AppConfig(parsing: text, file: "bench.toml")
    let loader = config.loader(extraSearchPaths: [pluginFolder])
    return try AppRuntime(
      config: config, registry: try config.loadPlugins(with: loader), loader: loader)
  } catch {
    fatalError("\(error) — \(BenchmarkRun.buildHint)")
  }
}

/// A copy of the fixture plugin named for `mode` (its behaviour is chosen by its file name).
func fixture(_ mode: String) -> String { BenchmarkRun.fixture(mode) }

/// p-th percentile of `values` (sorted in place).
func percentile(_ values: inout [UInt64], _ p: Double) -> UInt64 {
  values.sort()
  guard !values.isEmpty else { return 0 }
  return values[min(values.count - 1, Int((Double(values.count) * p / 100).rounded(.up)) - 1)]
}
