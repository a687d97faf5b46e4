import Benchmark
import BenchmarkSupport
import Foundation
import PatchbayConfig
import PatchbayHost
import PatchbayWatch

/// The counter app (the root build's plugins) whose counter the swap benchmarks swap.
func swapApp() -> AppRuntime {
  do {
    let app = try loadApp("host-config/counter-echo.toml")
    try app.send("counter", "setStep(by: 3)")
    try app.send("counter", "increment")
    return app
  } catch {
    fatalError("\(error) — \(BenchmarkRun.buildHint)")
  }
}

/// One app per swap benchmark, made once (loading is not what they measure).
let alternatingSwapApp = swapApp()

/// Builds of the Swift plugins to measure: this checkout's build (linking the shared
/// `libPatchbaySDK.so`) and, when `PATCHBAY_BENCH_STATIC_PLUGINS` names a folder holding
/// `libCounter.so`, `libCounterAlt.so` and `libTestFixtureNumbered.so` built before the SDK was
/// shared (each carrying its own copy of it), those too — so one run compares them.
let pluginBuilds: [(name: String, folder: URL)] = {
  let rootBuild = BenchmarkRun.rootBuild
  var builds = [("shared SDK", rootBuild)]
  if let folder = ProcessInfo.processInfo.environment["PATCHBAY_BENCH_STATIC_PLUGINS"] {
    builds.append(("static SDK", URL(fileURLWithPath: folder)))
  }
  return builds
}()

/// Copies of `build`'s Counter and CounterAlt whose modification time the benchmark bumps, so
/// each swap sees a rebuilt file.
func rebuiltPlugins(from build: URL) -> [String] {
  let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
    "patchbay-swap-\(getpid())-\(build.lastPathComponent)")
  do {
    try? FileManager.default.removeItem(at: folder)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    try BenchmarkRun.linkSDK(into: folder)
    return try ["Counter", "CounterAlt"].map { name in
      let copy = folder.appendingPathComponent("lib\(name).so").path
      try FileManager.default.copyItem(
        atPath: build.appendingPathComponent("lib\(name).so").path, toPath: copy)
      return copy
    }
  } catch {
    fatalError("\(error) — \(BenchmarkRun.buildHint)")
  }
}

/// A duration in whole microseconds.
func microseconds(_ duration: Duration) -> Int {
  Int(duration.components.seconds) * 1_000_000
    + Int(duration.components.attoseconds / 1_000_000_000_000)
}

let swapBenchmarks: @Sendable () -> Void = {
  let rootBuild = BenchmarkRun.rootBuild

  // Both files already loaded: snapshot → migrate → create, and the held actions released.
  Benchmark(
    "swap: Counter ⇄ CounterAlt (state kept, schema 1 ⇄ 2)",
    configuration: .init(
      metrics: [.wallClock, .mallocCountTotal], timeUnits: .microseconds, warmupIterations: 4,
      maxDuration: .seconds(5), maxIterations: 2_000)
  ) { benchmark in
    let app = alternatingSwapApp
    let plugins = ["CounterAlt", "Counter"].map {
      rootBuild.appendingPathComponent("lib\($0).so").path
    }
    var index = app.registry["dev.patchbay.counter"]?.schemaVersion == 1 ? 0 : 1
    for _ in benchmark.scaledIterations {
      blackHole(try app.swap("counter", to: plugins[index % 2]))
      index += 1
    }
  }

  // Each swap loads a file that changed since: a new generation copied, dlopen'ed, validated.
  for build in pluginBuilds {
    Benchmark(
      "swap: to a rebuilt plugin file (new generation each time, \(build.name))",
      configuration: .init(
        metrics: [
          .wallClock, .custom("actions held (µs)", useScalingFactor: false),
          .custom("resident memory per generation (KB)", useScalingFactor: false),
        ],
        timeUnits: .milliseconds, warmupIterations: 2, maxDuration: .seconds(10), maxIterations: 100
      )
    ) { benchmark in
      let app = swapApp()
      try swapToRebuiltFiles(
        benchmark, app: app, id: "counter", files: rebuiltPlugins(from: build.folder),
        first: app.registry["dev.patchbay.counter"]?.schemaVersion == 1 ? 1 : 0,
        measuringResidentMemory: true)
    }
  }
}

/// `--watch`: a rebuilt plugin file renamed into place (as a linker does) → the new code
/// running with the old state; inotify tells the watcher, the poll (every second here) would
/// be too slow to matter.
func watchBenchmarks() {
  for build in pluginBuilds {
    watchBenchmark(build.name, from: build.folder)
  }
}

func watchBenchmark(_ name: String, from build: URL) {
  Benchmark(
    "watch: plugin file renamed into place → new code running (inotify, \(name))",
    configuration: .init(metrics: [.wallClock], timeUnits: .milliseconds, maxIterations: 30)
  ) { benchmark in
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "patchbay-watch-\(getpid())-\(UUID().uuidString)")
    try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let plugin = folder.appendingPathComponent("libCounter.so").path
    try? BenchmarkRun.linkSDK(into: folder)
    try? FileManager.default.copyItem(
      atPath: build.appendingPathComponent("libCounter.so").path, toPath: plugin)
    guard
      let config = try? AppConfig(
        parsing: AppConfig.oneFeature("dev.patchbay.counter", of: plugin, key: "counter"),
        file: folder.appendingPathComponent("app.toml").path),
      let app = try? AppRuntime(
        config: config, registry: try config.loadPlugins(with: config.loader()))
    else { fatalError("the watched app did not start") }
    let watcher = PluginWatcher(app: app, interval: .seconds(1), quietPeriod: .seconds(1)) { _ in }
    watcher.start()
    defer { watcher.stop() }
    var alternate = false
    for _ in benchmark.scaledIterations {
      alternate.toggle()
      let source = build.appendingPathComponent(alternate ? "libCounterAlt.so" : "libCounter.so")
      let temporary = plugin + ".tmp"
      try? FileManager.default.removeItem(atPath: temporary)
      try? FileManager.default.copyItem(atPath: source.path, toPath: temporary)
      let wanted: UInt32 = alternate ? 2 : 1
      benchmark.startMeasurement()
      rename(temporary, plugin)
      while (try? app.instance("counter").feature.schemaVersion) != wanted { usleep(200) }
      benchmark.stopMeasurement()
    }
  }
}

/// The rebuilt-file swap: `app`'s `id` swapped to each of `files` in turn from `first`, each
/// file's modification time moved a second on first (a build finishing, so the loader makes a
/// new generation), timed, with the actions it held ("actions held (µs)") and, when asked, what
/// it added to the resident memory ("resident memory per generation (KB)").
func swapToRebuiltFiles(
  _ benchmark: Benchmark, app: AppRuntime, id: String, files: [String], first: Int = 1,
  measuringResidentMemory: Bool = false
) throws {
  var index = first
  var stamp = Date().timeIntervalSince1970 + Double(benchmark.currentIteration) * 1000
  for _ in benchmark.scaledIterations {
    let file = files[index % files.count]
    stamp += 1
    try FileManager.default.setAttributes(
      [.modificationDate: Date(timeIntervalSince1970: stamp)], ofItemAtPath: file)
    let before = measuringResidentMemory ? residentBytes() : 0
    benchmark.startMeasurement()
    let report = try app.swap(id, to: file)
    benchmark.stopMeasurement()
    benchmark.measurement(
      .custom("actions held (µs)", useScalingFactor: false), microseconds(report.held))
    if measuringResidentMemory {
      benchmark.measurement(
        .custom("resident memory per generation (KB)", useScalingFactor: false),
        (residentBytes() - before) / 1024)
    }
    index += 1
  }
}
