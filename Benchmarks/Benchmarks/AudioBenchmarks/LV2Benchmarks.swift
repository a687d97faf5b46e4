import Benchmark
import BenchmarkSupport
import Foundation
import PatchbayLV2

// The host's cost around an LV2 plugin (issue 45's floor: at most 50 ns a period beyond the
// plugin's own run). The same instance, 128-frame blocks, run through LV2Instance.run and
// through the plugin's own `run` function pointer (nothing of the host around it), in
// alternating rounds of 2,000, so both see the same caches and the same machine; a sample is
// the median of the rounds' differences. Plugins without atom ports: one with them needs its
// sequences reset every period by any host (fil4 run bare says "comm-buffersize is
// insufficient"), so a bare loop would not be a host to compare with.
func lv2Benchmarks() {
  let hosted = BenchmarkMetric.custom("LV2Instance.run (ns)", useScalingFactor: false)
  let direct = BenchmarkMetric.custom(
    "the plugin's run, called directly (ns)", useScalingFactor: false)
  let cost = BenchmarkMetric.custom("the host's cost (ns)", useScalingFactor: false)
  for (name, uri) in [
    ("x42 compressor (darc, mono)", "http://gareus.org/oss/lv2/darc#mono"),
    ("x42 compressor (darc, stereo)", "http://gareus.org/oss/lv2/darc#stereo"),
  ] {
    Benchmark(
      "LV2: one 128-frame period of the \(name), hosted vs its own run",
      configuration: .init(
        metrics: [hosted, direct, cost], warmupIterations: 1, maxDuration: .seconds(10),
        maxIterations: 20)
    ) { benchmark in
      let instance: LV2Instance
      do {
        instance = try LV2Instance(
          LV2World.shared.plugin(uri: uri), sampleRate: 48_000, maximumFrames: 128)
      } catch {
        fatalError("\(error) — apt-get install x42-plugins (make deps does)")
      }
      for input in instance.audioInputs {
        for index in 0..<128 { input[index] = sinf(Float(index) / 10) * 0.5 }
      }
      let (run, handle) = instance.pluginRun
      let perRound = BenchmarkRun.workload(2_000, smoke: 20)
      var (hostedTimes, directTimes, costs) = ([Int](), [Int](), [Int]())
      for _ in 0..<BenchmarkRun.workload(25, smoke: 1) {
        let start = DispatchTime.now().uptimeNanoseconds
        for _ in 0..<perRound { instance.run(frames: 128) }
        let middle = DispatchTime.now().uptimeNanoseconds
        for _ in 0..<perRound { run(handle, 128) }
        let end = DispatchTime.now().uptimeNanoseconds
        let (a, b) = (Int(middle - start) / perRound, Int(end - middle) / perRound)
        hostedTimes.append(a)
        directTimes.append(b)
        costs.append(a - b)
      }
      func median(_ values: [Int]) -> Int { values.sorted()[values.count / 2] }
      benchmark.measurement(hosted, median(hostedTimes))
      benchmark.measurement(direct, median(directTimes))
      benchmark.measurement(cost, max(0, median(costs)))
    }
  }
}
