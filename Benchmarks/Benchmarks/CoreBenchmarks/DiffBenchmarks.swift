import Benchmark
import BenchmarkSupport
import Foundation
import PatchbayConfig
import PatchbayEncoding
import PatchbayHost
import PatchbayLoader

/// The fixture's "huge" feature in an app with diffs on, its state grown to
/// `bytes`: each `touch` changes one counter beside the blob. `mode` "huge" says which fields
/// an action changed (`changed_fields`); "hugesnapshots" does not, so each action is diffed
/// from two whole snapshots.
func hugeStateApp(bytes: Int, mode: String = "huge") -> AppRuntime {
  let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
    "patchbay-diff-\(getpid())-\(bytes)-\(mode)")
  do {
    try? FileManager.default.removeItem(at: folder)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let plugin = folder.appendingPathComponent("\(mode).so").path
    try FileManager.default.copyItem(
      atPath: BenchmarkRun.rootBuild.appendingPathComponent("libTestFixtureMisbehaving.so").path,
      toPath: plugin)
    let config = try AppConfig(
      parsing: AppConfig.oneFeature(
        "dev.patchbay.fixture-huge", of: plugin, key: "huge",
        tables: "[limits]\nstate-bytes = 67108864"),
      file: folder.appendingPathComponent("huge.toml").path)
    let app = try AppRuntime(config: config, registry: try config.loadPlugins(with: PluginLoader()))
    app.onChange { _ in }
    app.tracksStateChanges = true
    try app.send("huge", "grow(bytes: \(bytes))")
    return app
  } catch {
    fatalError("\(error) — \(BenchmarkRun.buildHint)")
  }
}

/// What `--print-changes` did before it diffed values, as the reference: both states as pretty JSON,
/// and the difference of their lines.
func jsonLineDiff(_ before: WireValue, _ after: WireValue) -> Int {
  let old = before.json(pretty: true).split(separator: "\n")
  let new = after.json(pretty: true).split(separator: "\n")
  return new.difference(from: old).count
}

let diffBenchmarks: @Sendable () -> Void = {
  let perChange = Benchmark.Configuration(
    metrics: [.wallClock, .mallocCountTotal], timeUnits: .microseconds, warmupIterations: 1,
    maxDuration: .seconds(5), maxIterations: 50)
  for megabytes in [5, 50] {
    for (mode, how) in [("huge", ""), ("hugesnapshots", ", from whole snapshots")] {
      Benchmark(
        "--print-changes: one counter changed in a \(megabytes) MB state\(how)",
        configuration: perChange
      ) {
        benchmark, app in
        for _ in benchmark.scaledIterations {
          do { try app.send("huge", "touch") } catch { fatalError("\(error)") }
        }
      } setup: {
        hugeStateApp(
          bytes: BenchmarkRun.workload(megabytes * 1_000_000, smoke: 10_000), mode: mode)
      }
    }
  }
  // The reference, on the same 5 MB states: the diff alone (no plugin call, no snapshot).
  Benchmark(
    "reference: the JSON line diff of the first --print-changes, 5 MB state",
    configuration: perChange
  ) {
    (benchmark: Benchmark, states: (WireValue, WireValue)) in
    for _ in benchmark.scaledIterations { blackHole(jsonLineDiff(states.0, states.1)) }
  } setup: {
    let blob = WireValue.string(
      String(repeating: "x", count: BenchmarkRun.workload(5_000_000, smoke: 10_000)))
    return (
      WireValue.record(fields: ("count", 0), ("blob", blob)),
      WireValue.record(fields: ("count", 1), ("blob", blob))
    )
  }
}
