import Benchmark
import BenchmarkSupport
import Patchbay
import PatchbayHost
import PatchbayLoader

// One process, one run: compare the rows with each other, not with another day's numbers.
// Synchronous paths run 1,000 actions a sample (scalingFactor .kilo) so the clock's own cost
// does not swamp them; the figures are per action. Round trips are one per sample, so their
// percentiles are per round trip.

let benchmarks: @Sendable () -> Void = {
  Benchmark.defaultConfiguration = .init(
    metrics: [.wallClock, .mallocCountTotal, .throughput],
    timeUnits: .nanoseconds,
    warmupIterations: 1_000,
    maxDuration: .seconds(3),
    maxIterations: 1_000_000
  )
  let perAction = Benchmark.Configuration(
    metrics: [.wallClock, .mallocCountTotal, .throughput],
    timeUnits: .nanoseconds,
    warmupIterations: 100,
    scalingFactor: .kilo,
    maxDuration: .seconds(3),
    maxIterations: 100_000
  )

  abiBenchmarks(perAction)
  hostBenchmarks(perAction)
  startupBenchmarks()
  swapBenchmarks()
  functionBenchmarks()
  watchBenchmarks()
  diffBenchmarks()
  devtoolsBenchmarks()
  isolationBenchmarks()
  wasmBenchmarks(perAction)

  Benchmark("baseline: direct reduce (Counter)", configuration: perAction) { benchmark in
    var state = Counter.State()
    let reducer = Counter()
    for _ in benchmark.scaledIterations {
      blackHole(reducer.reduce(into: &state, action: .increment))
    }
    blackHole(state)
  }

  // What any store that may be sent to from several threads pays at least: the reduce under
  // an uncontended lock (LockedValue, the store's own lock), no queue, no effects.
  Benchmark("baseline: direct reduce under a lock (Counter)", configuration: perAction) {
    benchmark in
    let state = LockedValue(Counter.State())
    let reducer = Counter()
    for _ in benchmark.scaledIterations {
      state.withValue { blackHole(reducer.reduce(into: &$0, action: .increment)) }
    }
    blackHole(state)
  }

  Benchmark("Store.send (Counter)", configuration: perAction) { benchmark in
    let store = Store(initialState: Counter.State()) { Counter() }
    for _ in benchmark.scaledIterations {
      store.send(.increment)
    }
    blackHole(store)
  }

  // The reference for the send through the C ABI: the same reducer shape in process
  // (docs/BENCHMARKS.md, "The send through the C ABI").
  Benchmark("Store.send (the Counter plugin's shape)", configuration: perAction) { benchmark in
    let store = Store(initialState: PluginShapedCounter.State()) { PluginShapedCounter() }
    for _ in benchmark.scaledIterations {
      store.send(.increment)
    }
    blackHole(store)
  }

  Benchmark("Store.send, child action 3 scopes deep", configuration: perAction) { benchmark in
    let store = Store(initialState: Level3.State()) { Level3() }
    for _ in benchmark.scaledIterations {
      store.send(.level2(.level1(.counter(.increment))))
    }
    blackHole(store)
  }

  // The store is made once, in setup: a sample is one round trip, and only it is measured
  // (a store's own allocations are not the effect's).
  Benchmark("effect round trip (run sends one action back)") {
    (
      benchmark: Benchmark,
      app: (store: Store<RoundTrip.State, RoundTrip.Action>, completions: Completions)
    ) in
    for _ in benchmark.scaledIterations {
      let target = app.completions.count.load(ordering: .acquiring) + 1
      app.store.send(.start)
      while app.completions.count.load(ordering: .acquiring) < target {}
    }
  } setup: {
    roundTripStore()
  }

  // The reference for the round trip, with no store: the task an effect starts in
  // (`Task.immediate`, run inline until it suspends), bumping a counter.
  Benchmark("reference: a bare Task.immediate that bumps a counter") {
    (benchmark: Benchmark, completions: Completions) in
    for _ in benchmark.scaledIterations {
      let target = completions.count.load(ordering: .acquiring) + 1
      Task.immediate { completions.count.add(1, ordering: .releasing) }
      while completions.count.load(ordering: .acquiring) < target {}
    }
  } setup: {
    Completions()
  }

  // The same task started from a function of its own, as a store starts its effects. The
  // compiler inlines `Task.immediate` into the loop above, where the executor preference is a
  // constant nil, and so makes no preference record; called from a function, it is compiled
  // once with the preference as a value, and a nil passed that way still gives the task a
  // preference record, which each hop and the task's end lock to read (docs/BENCHMARKS.md,
  // "The effect round trip").
  Benchmark("reference: a bare Task.immediate started from a function of its own") {
    (benchmark: Benchmark, completions: Completions) in
    for _ in benchmark.scaledIterations {
      let target = completions.count.load(ordering: .acquiring) + 1
      startBareTask(bumping: completions)
      while completions.count.load(ordering: .acquiring) < target {}
    }
  } setup: {
    Completions()
  }

  Benchmark(
    "effect round trip, effect suspends once (thread hop)",
    configuration: .init(maxDuration: .seconds(3), maxIterations: 100_000)
  ) {
    (
      benchmark: Benchmark,
      app: (store: Store<RoundTrip.State, RoundTrip.Action>, completions: Completions)
    ) in
    for _ in benchmark.scaledIterations {
      let target = app.completions.count.load(ordering: .acquiring) + 1
      app.store.send(.startSuspending)
      while app.completions.count.load(ordering: .acquiring) < target {}
    }
  } setup: {
    roundTripStore()
  }

  // Last: the watchdog, once started, watches every call of this process from then on.
  Benchmark(
    "host: AppRuntime.send(path, action text) into Counter, on the app queue, watchdog running",
    configuration: perAction
  ) { benchmark in
    CrashReports.watch(.standard, periodSeconds: 128.0 / 48_000)
    try sendIncrementsOnTheAppQueue(benchmark)
  }

  BenchmarkRun.finishRegistration()
}

/// Starts a task that bumps `completions`, as ``EffectRunner`` starts an effect's: from a
/// function that is not inlined into its caller's loop.
@inline(never)
func startBareTask(bumping completions: Completions) {
  Task.immediate { completions.count.add(1, ordering: .releasing) }
}

/// A store of the round-trip feature, and the count of its completed trips.
func roundTripStore() -> (store: Store<RoundTrip.State, RoundTrip.Action>, completions: Completions)
{
  let completions = Completions()
  return (Store(initialState: RoundTrip.State()) { RoundTrip(completed: completions) }, completions)
}
