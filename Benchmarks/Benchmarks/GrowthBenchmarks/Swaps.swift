import Benchmark
import BenchmarkSupport
import PatchbayHost

/// Counter ⇄ CounterAlt (schema 1 ⇄ 2, so each instance's state is migrated) in an app of
/// `instances` Counters: the top one and its rows.
let swapBenchmarks: @Sendable () -> Void = {
  let plugins = ["CounterAlt", "Counter"].map {
    BenchmarkRun.rootBuild.appendingPathComponent("lib\($0).so").path
  }
  let held = BenchmarkMetric.custom("actions held", useScalingFactor: false)
  Growth(
    "swap: counter to counter-alt or back", per: "instances", sizes: Growth.decades(to: 10_000)
  )
  .register(
    configuration: .init(
      metrics: [.wallClock, .mallocCountTotal, held], timeUnits: .nanoseconds,
      warmupIterations: 2, maxDuration: .seconds(3), maxIterations: 100)
  ) {
    (try rowsApp(rows: $0 - 1), SwapTurn())
  } measure: { benchmark, subject in
    let (app, turn) = subject
    for _ in benchmark.scaledIterations {
      let report = try app.swap("top", to: plugins[turn.next()])
      let (seconds, attoseconds) = report.held.components
      benchmark.measurement(held, Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000))
    }
  }
}

/// Which plugin the next swap goes to: CounterAlt, Counter, CounterAlt, …
final class SwapTurn: @unchecked Sendable {
  private var count = 0
  func next() -> Int {
    defer { self.count += 1 }
    return self.count % 2
  }
}
