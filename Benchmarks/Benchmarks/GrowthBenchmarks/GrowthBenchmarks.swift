import Benchmark
import BenchmarkSupport

// How each cost grows with the app: one benchmark per size of each curve, named
// `growth: <title> @ <size> <sizes>`. `make bench` exports them and `GrowthReport` draws each
// curve on log–log axes and fits its slope (docs/BENCHMARKS.md, "Growth"). Compare the sizes
// of one run with each other, not with another day's.

let benchmarks: @Sendable () -> Void = {
  rowBenchmarks()
  effectBenchmarks()
  swapBenchmarks()
  pluginBenchmarks()
  audioBenchmarks()
  isolationBenchmarks()
  stateBenchmarks()
  BenchmarkRun.finishRegistration()
}
