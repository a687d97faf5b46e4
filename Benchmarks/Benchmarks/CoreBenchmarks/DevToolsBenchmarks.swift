import Benchmark
import BenchmarkSupport
import Foundation
import PatchbayConfig
import PatchbayDevTools
import PatchbayHost
import PatchbayLoader

/// A counter app, watched as a run is (a change handler, as `--record` sets), and with a
/// DevTools page attached when `page` is true: the feed on, and a page draining its stream.
func devtoolsCounterApp(page: Bool) -> (AppRuntime, DevToolsFeed?, Task<Int, Never>?) {
  do {
    let app = try loadApp("host-config/counter-echo.toml")
    guard page else {
      app.onChange { _ in }
      return (app, nil, nil)
    }
    let feed = DevToolsFeed()
    feed.attach(to: app)
    let stream = feed.subscribe()
    let reader = Task {
      var bytes = 0
      for await entry in stream { bytes += entry.utf8.count }
      return bytes
    }
    return (app, feed, reader)
  } catch {
    fatalError("\(error) — \(BenchmarkRun.buildHint)")
  }
}

let devtoolsBenchmarks: @Sendable (Benchmark.Configuration) -> Void = { perAction in
  // The floor: with a page attached, the app queue's cost per action grows by at most 5 %.
  // Both send on the app queue, one job per 1,000 actions (what it costs the queue, not the
  // caller); compare the two rows' medians.
  for page in [false, true] {
    Benchmark(
      page
        ? "devtools: the app queue per action, a page attached (Counter)"
        : "devtools: the app queue per action, no page (Counter; the reference)",
      configuration: perAction
    ) { benchmark, fixture in
      let (app, _, _) = fixture
      try app.perform {
        for _ in benchmark.scaledIterations { try app.send("counter", "increment") }
      }
    } setup: {
      devtoolsCounterApp(page: page)
    }
  }

  // The floor: with a 50 MB state, a page receives what changed, not the state: bytes sent
  // per action at most twice the changed fields' JSON plus a constant.
  Benchmark(
    "devtools: bytes a page receives per action, one counter changed in a 50 MB state",
    configuration: .init(
      metrics: [.wallClock, .custom("bytes sent per action", polarity: .prefersSmaller)],
      timeUnits: .microseconds, warmupIterations: 0, maxDuration: .seconds(10),
      maxIterations: 5)
  ) { benchmark, app in
    let feed = DevToolsFeed()
    feed.attach(to: app)
    let stream = feed.subscribe()
    let actions = 20
    for _ in 0..<actions { try app.send("huge", "touch") }
    _ = await app.settle()
    var bytes = 0
    var received = 0
    for await entry in stream {
      bytes += entry.utf8.count
      received += 1
      if received == actions { break }
    }
    benchmark.measurement(.custom("bytes sent per action"), bytes / actions)
  } setup: {
    hugeStateApp(bytes: BenchmarkRun.workload(50_000_000, smoke: 10_000))
  }
}
