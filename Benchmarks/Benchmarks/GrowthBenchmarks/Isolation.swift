import Benchmark
import BenchmarkSupport
import Foundation
import PatchbayHost

let isolationSizes = [1, 2, 4, 8, 16, 32]

/// An app of `count` Swift plugins, each isolated in a process of its own, loaded.
final class IsolatedApp: @unchecked Sendable {
  let made: PluginsApp
  let app: AppRuntime

  init(count: Int) throws {
    self.made = try PluginsApp(.swift, count: count, isolated: true)
    self.app = try self.made.load()
  }
}

let isolationBenchmarks: @Sendable () -> Void = {
  BenchmarkRun.useRootIsolatedChild()

  // A round trip to one isolated plugin while P run: each has its own process, channel and
  // watchdog, and none should slow another's.
  Growth("isolation: send to one isolated plugin", per: "plugins", sizes: isolationSizes)
    .register(configuration: Growth.perOperation) {
      try IsolatedApp(count: $0)
    } measure: { benchmark, isolated in
      try isolated.app.perform {
        for _ in benchmark.scaledIterations { try isolated.app.send("f0", "increment") }
      }
    }

  // From nothing to an app whose P plugins each run in a process of their own, loaded and
  // their instances created; the processes end with it.
  Growth("isolation: start an app of isolated plugins", per: "plugins", sizes: isolationSizes)
    .register(
      configuration: .init(
        metrics: [.wallClock], timeUnits: .milliseconds, warmupIterations: 1,
        maxDuration: .seconds(10), maxIterations: 20)
    ) {
      try PluginsApp(.swift, count: $0, isolated: true)
    } measure: { benchmark, made in
      for _ in benchmark.scaledIterations {
        let app = try made.load()
        blackHole(app)
      }
    }

  // The private memory of the isolated processes, ÷ P: what each isolated plugin costs
  // beyond the host's own process. (Their resident sets, 34 MB each here, also count the
  // pages of the Swift runtime, Foundation and the SDK that every process shares.)
  Growth("isolation: private memory per isolated plugin", per: "plugins", sizes: isolationSizes)
    .registerFigure("bytes per plugin") { count in
      let earlier = Set(BenchmarkRun.isolatedChildren())
      let isolated = try IsolatedApp(count: count)
      try isolated.app.send("f0", "increment")
      let children = BenchmarkRun.isolatedChildren().filter { !earlier.contains($0) }
      guard children.count == count else {
        throw GrowthError("\(children.count) isolated processes run, not \(count)")
      }
      let held = children.map(BenchmarkRun.privateBytes(of:)).reduce(0, +)
      withExtendedLifetime(isolated) {}
      return held / count
    }
}
