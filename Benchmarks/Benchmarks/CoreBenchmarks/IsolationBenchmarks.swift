import Benchmark
import BenchmarkSupport
import Foundation
import PatchbayAudioDevice
import PatchbayAudioGraph
import PatchbayConfig
import PatchbayHost
import PatchbayLoader
import References

// Isolated plugins: a plugin in a process of its own, beside the limit of this
// machine, a bare C ping-pong between two processes over shared memory and futexes, measured
// in the same run. A sample is one round trip, so the percentiles are per round trip.

/// What a benchmark made in its setup, released in its teardown (a child process each).
nonisolated(unsafe) private var held: [AnyObject] = []
nonisolated(unsafe) private var ping: OpaquePointer?

/// An app of `plugins` (names in the root build, or paths) whose root is feature `id` at
/// `key`, each plugin isolated when `isolated`.
func isolationApp(
  _ plugins: [String], id: String, key: String, isolated: Bool, tables: String = ""
) -> AppRuntime {
  let text = AppConfig.oneFeature(
    id, of: plugins[0], key: key, also: Array(plugins.dropFirst()),
    plugins: isolated ? ["isolate = [\"all\"]"] : [], tables: tables)
  do {
    let config = try AppConfig(parsing: text, file: "isolation.toml")
    let loader = config.loader(extraSearchPaths: [BenchmarkRun.rootBuild.path])
    return try AppRuntime(
      config: config, registry: try config.loadPlugins(with: loader), loader: loader)
  } catch {
    fatalError("\(error) — \(BenchmarkRun.buildHint)")
  }
}

let isolationBenchmarks: @Sendable () -> Void = {
  BenchmarkRun.useRootIsolatedChild()
  let roundTrip = Benchmark.Configuration(
    metrics: [.wallClock, .mallocCountTotal], timeUnits: .microseconds, warmupIterations: 200,
    maxDuration: .seconds(3), maxIterations: BenchmarkRun.workload(100_000, smoke: 1),
    teardown: {
      held.removeAll()
      if let running = ping { reference_ping_pong_stop(running) }
      ping = nil
    })

  Benchmark(
    "isolation: bare C ping-pong between two processes, shared memory + futex (the reference)",
    configuration: roundTrip
  ) { benchmark in
    guard let running = ping else { return }
    for _ in benchmark.scaledIterations { reference_ping_pong_round_trip(running) }
  } setup: {
    ping = reference_ping_pong_start()
  }

  // The same action through AppRuntime's instance, in this process and isolated: a reduce
  // round trip, and the snapshot its reply carries (what a restart starts from).
  for isolated in [false, true] {
    Benchmark(
      "isolation: send increment to Counter, \(isolated ? "isolated (a round trip)" : "in this process")",
      configuration: roundTrip
    ) { (benchmark: Benchmark, handle: FeatureHandle) in
      let action = try? handle.parseAction("increment")
      for _ in benchmark.scaledIterations { handle.send(action ?? []) }
    } setup: {
      let app = isolationApp(
        ["Counter"], id: "dev.patchbay.counter", key: "counter", isolated: isolated)
      held.append(app)
      return try app.instance("counter")
    }
  }

  // The cost per action of keeping the state for a restart: the fixture's state grown to
  // 1 KB and 5 MB, one `touch` an action (the reply carries the whole snapshot).
  for (bytes, label) in [(1_024, "1 KB"), (5 << 20, "5 MB")] {
    for isolated in [false, true] {
      Benchmark(
        "isolation: an action on a \(label) state, \(isolated ? "isolated (+ snapshot)" : "in this process")",
        configuration: roundTrip
      ) { (benchmark: Benchmark, handle: FeatureHandle) in
        let touch = try? handle.parseAction("touch")
        for _ in benchmark.scaledIterations { handle.send(touch ?? []) }
      } setup: {
        let app = isolationApp(
          [BenchmarkRun.fixture("huge")], id: "dev.patchbay.fixture-huge", key: "huge",
          isolated: isolated)
        held.append(app)
        let handle = try app.instance("huge")
        try handle.send(text: "grow(bytes: \(bytes))")
        return handle
      }
    }
  }

  // One 128-frame period through a processor that does nothing: the host's cost around it,
  // in this process and isolated (copy in, wake, wait, mix back).
  for isolated in [false, true] {
    Benchmark(
      "isolation: one period of an empty processor, \(isolated ? "isolated" : "in this process")",
      configuration: roundTrip
    ) {
      (benchmark: Benchmark, setup: (graph: ProcessorGraph, mix: UnsafeMutablePointer<Float>)) in
      var steady: UInt64 = 0
      for _ in benchmark.scaledIterations {
        setup.graph.render(into: setup.mix, frames: 128, steadyTime: steady)
        steady += 128
      }
    } setup: {
      let app = isolationApp(
        [BenchmarkRun.fixture("emptyprocessor")], id: "dev.patchbay.fixture-empty-processor",
        key: "empty", isolated: isolated)
      let graph = ProcessorGraph(
        format: AudioFormat(sampleRate: 48_000, channels: 2, periodFrames: 128))
      try app.attach(graph)
      let mix = UnsafeMutablePointer<Float>.allocate(capacity: 256)
      mix.initialize(repeating: 0, count: 256)
      held.append(app)
      held.append(graph)
      return (graph, mix)
    }
  }

  // A Swift plugin's process killed (as a crash ends it), until the plugin runs again with
  // its state: the next action finds it gone, a new process starts, loads Counter, and
  // creates the instance from its last state; the action after runs there.
  // Timed by hand, from the kill: finding the process (reading /proc) is not what it measures.
  let restart = BenchmarkMetric.custom(
    "crash until running again (µs)", polarity: .prefersSmaller, useScalingFactor: false)
  Benchmark(
    "isolation: crash until running again with its state, Counter (Swift)",
    configuration: .init(
      metrics: [restart], warmupIterations: 1, maxDuration: .seconds(10),
      maxIterations: BenchmarkRun.workload(40, smoke: 1), teardown: { held.removeAll() })
  ) { (benchmark: Benchmark, handle: FeatureHandle) in
    let action = try? handle.parseAction("increment")
    let children = BenchmarkRun.isolatedChildren()
    let start = DispatchTime.now().uptimeNanoseconds
    for child in children { kill(child, SIGKILL) }
    handle.send(action ?? [])  // refused: the process is gone; it starts again
    handle.send(action ?? [])  // runs in the new process
    benchmark.measurement(restart, Int(DispatchTime.now().uptimeNanoseconds - start) / 1_000)
  } setup: {
    // Crashes count toward disabling the plugin; this one never is.
    let app = isolationApp(
      ["Counter"], id: "dev.patchbay.counter", key: "counter", isolated: true,
      tables: "[limits]\nisolated-crashes = 1000")
    held.append(app)
    return try app.instance("counter")
  }
}
