import Benchmark
import BenchmarkSupport
import Foundation
import PatchbayConfig
import PatchbayDevTools
import PatchbayHost
import PatchbayLoader

/// Two counter apps, alike but for DevTools: one has none (the reference), the other a feed
/// attached and a page reading its stream. Loaded once and kept (as `counterApp` is).
let devtoolsApps: (reference: AppRuntime, watched: AppRuntime, feed: DevToolsFeed) = {
  do {
    let reference = try loadApp("host-config/counter-echo.toml")
    let watched = try loadApp("host-config/counter-echo.toml")
    let feed = DevToolsFeed()
    feed.attach(to: watched)
    let page = feed.subscribe()
    Task.detached {
      for await entry in page { blackHole(entry) }
    }
    return (reference, watched, feed)
  } catch {
    fatalError("\(error) — \(BenchmarkRun.buildHint)")
  }
}()

/// The app queue's time for one job of `count` increments, measured inside the job.
func queueTime(of app: AppRuntime, sending count: Int) throws -> UInt64 {
  try app.perform {
    let began = DispatchTime.now().uptimeNanoseconds
    for _ in 0..<count { try app.send("counter", "increment") }
    return DispatchTime.now().uptimeNanoseconds - began
  }
}

let devtoolsBenchmarks: @Sendable () -> Void = {
  // The floor: with a page attached and 1,000 actions/s, the app queue's cost per action grows
  // by at most 5 %. At that pace a batch holds what comes in one batch interval (50 actions at
  // 1/20 s), so each round sends that many to each app in one job, then has the watched app's
  // batch taken; the watched app's cost is its job plus the batch's jobs (the queue time the
  // pump reports). The two apps take turns, so both see the same load.
  let reference = BenchmarkMetric.custom("ns per action on the app queue, no DevTools")
  let watched = BenchmarkMetric.custom("ns per action on the app queue, a page attached")
  let pumped = BenchmarkMetric.custom("ns per action of the page's batches (in the above)")
  let growth = BenchmarkMetric.custom("growth with a page (‰; the floor is 50)")
  Benchmark(
    "devtools: the app queue per action at 1,000 actions/s, a page attached against none",
    configuration: .init(
      metrics: [reference, watched, pumped, growth], timeUnits: .nanoseconds,
      warmupIterations: 0, maxDuration: .seconds(60), maxIterations: 1)
  ) { benchmark in
    let apps = devtoolsApps
    let interval = DevToolsFeed.Pacing.standard.batchInterval.components
    let batch = Int(interval.seconds) * 1_000 + Int(interval.attoseconds / 1_000_000_000_000_000)
    var referenceCosts: [UInt64] = []
    var jobCosts: [UInt64] = []
    var pumpCosts: [UInt64] = []
    for _ in 0..<BenchmarkRun.workload(3_000, smoke: 20) {
      referenceCosts.append(try queueTime(of: apps.reference, sending: batch))
      let before = apps.feed.appQueueTime
      let job = try queueTime(of: apps.watched, sending: batch)
      await apps.feed.flush(diffs: false)  // a batch as the pump takes one, at its pace
      let pump = apps.feed.appQueueTime - before
      let pumpTime = UInt64(
        pump.components.seconds * 1_000_000_000 + pump.components.attoseconds / 1_000_000_000)
      pumpCosts.append(pumpTime)
      jobCosts.append(job)
    }
    // The jobs' 10th percentile: what a round costs when nothing else got in its way (on this
    // machine, another process's time lands inside a round now and then, always adding, never
    // taking away). The batches' cost is their mean, the costliest tenth left out: a batch
    // that snapshots comes one in a few, and a percentile would leave it out.
    let quiet = { (costs: [UInt64]) in Int(costs.sorted()[costs.count / 10]) / batch }
    let cheapest = pumpCosts.sorted().prefix(pumpCosts.count * 9 / 10)
    let batches = Int(cheapest.reduce(0, +)) / max(cheapest.count, 1) / batch
    let (without, with) = (quiet(referenceCosts), quiet(jobCosts) + batches)
    benchmark.measurement(reference, without)
    benchmark.measurement(watched, with)
    benchmark.measurement(pumped, batches)
    benchmark.measurement(growth, (with - without) * 1_000 / max(without, 1))
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
    defer { feed.detach() }
    let stream = feed.subscribe()
    let actions = 20
    for _ in 0..<actions { try app.send("huge", "touch") }
    _ = await app.settle()
    await feed.flush()
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
