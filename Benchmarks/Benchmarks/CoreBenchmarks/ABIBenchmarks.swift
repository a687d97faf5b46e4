import Benchmark
import BenchmarkSupport
import Foundation
import PatchbayConfig
import PatchbayEncoding
import PatchbayHost
import PatchbayLoader

/// The Counter plugin of the root's build (release; debug in a smoke run).
let counterPlugin = BenchmarkRun.rootBuild.appendingPathComponent("libCounter.so").path

/// One Counter instance, loaded once (loading copies and maps a 20 MB library: not measured).
let counterInstance: FeatureHandle = {
  do {
    return try FeatureHandle(feature: try PluginLoader().load(counterPlugin).features[0])
  } catch {
    fatalError("\(error) — \(BenchmarkRun.buildHint)")
  }
}()

let abiBenchmarks: @Sendable (Benchmark.Configuration) -> Void = { perAction in
  Benchmark("ABI send into Counter plugin (increment)", configuration: perAction) { benchmark in
    let counter = counterInstance
    let increment = WireValue.action("increment").bytes
    for _ in benchmark.scaledIterations {
      counter.send(increment)
    }
    blackHole(counter)
  }
}

/// The repository root, for configs.
let repositoryRoot = BenchmarkRun.repositoryRoot

/// Loads an app config with the plugins of the root's build; with `flightActions`, its
/// flight recorder's length instead of the config's (0: none).
func loadApp(_ config: String, flightActions: Int? = nil) throws -> AppRuntime {
  var app = try AppConfig(contentsOf: repositoryRoot.appendingPathComponent(config).path)
  if let flightActions { app.limits.flightActions = flightActions }
  let plugins = BenchmarkRun.rootBuild.path
  let registry = try app.loadPlugins(with: PluginLoader(searchPaths: [plugins]))
  return try AppRuntime(config: app, registry: registry)
}

let counterApp: AppRuntime = {
  do {
    return try loadApp("host-config/counter-echo.toml")
  } catch {
    fatalError("\(error) — \(BenchmarkRun.buildHint)")
  }
}()

/// Two fresh apps of the same config, for the flight recorder's cost: one keeps the last
/// 10,000 actions (the default), one none (`[limits] flight-actions = 0`). Judged against each
/// other in the same run (docs/BENCHMARKS.md, "The flight recorder's cost").
let flightApps: (on: AppRuntime, off: AppRuntime) = {
  do {
    return (
      try loadApp("host-config/counter-echo.toml", flightActions: 10_000),
      try loadApp("host-config/counter-echo.toml", flightActions: 0)
    )
  } catch {
    fatalError("\(error) — \(BenchmarkRun.buildHint)")
  }
}()

/// The host's per-action path: `scaledIterations` sends of `increment` to the counter app's
/// Counter, from a job on its app queue.
func sendIncrementsOnTheAppQueue(_ benchmark: Benchmark, app: AppRuntime = counterApp) throws {
  try app.perform {
    for _ in benchmark.scaledIterations {
      try app.send("counter", "increment")
    }
  }
}

let hostBenchmarks: @Sendable (Benchmark.Configuration) -> Void = { perAction in
  Benchmark("host: AppRuntime.send(path, action text) into Counter", configuration: perAction) {
    benchmark in
    let app = counterApp
    for _ in benchmark.scaledIterations {
      try app.send("counter", "increment")
    }
  }

  Benchmark(
    "host: AppRuntime.send(path, action text) into Counter, on the app queue",
    configuration: perAction
  ) { benchmark in
    try sendIncrementsOnTheAppQueue(benchmark)
  }

  // The flight recorder writes each action before its reduce (and a checkpoint every 5,000):
  // two fresh apps, alike but for it, in the same run.
  for (name, app) in [("on", flightApps.on), ("off", flightApps.off)] {
    Benchmark(
      "host: flight recorder \(name): AppRuntime.send(path, text) on the app queue",
      configuration: perAction
    ) { benchmark in
      try sendIncrementsOnTheAppQueue(benchmark, app: app)
    }
  }

  Benchmark(
    "host: AppRuntime.send from another thread while effects keep the queue busy",
    configuration: perAction
  ) { benchmark in
    let app = counterApp
    // rampUp's effect sends 200 actions from a task: the queue is busy while we send.
    try app.send("counter", "rampUp(times: 100)")
    for _ in benchmark.scaledIterations {
      try app.send("counter", "increment")
    }
    _ = await app.settle()
  }

  Benchmark("host: app.instance(path) then send(bytes) into Counter", configuration: perAction) {
    benchmark in
    let app = counterApp
    let increment = WireValue.action("increment").bytes
    for _ in benchmark.scaledIterations {
      try app.instance("counter").send(increment)
    }
  }

  Benchmark(
    "startup: load the demo's 4 plugins, create the root, render (in process)",
    configuration: .init(
      metrics: [.wallClock, .mallocCountTotal], timeUnits: .milliseconds, warmupIterations: 1,
      maxDuration: .seconds(10), maxIterations: 20)
  ) { benchmark in
    for _ in benchmark.scaledIterations {
      let app = try loadApp("host-config/app.toml")
      blackHole(try app.renderCurrent())
    }
  }
}
