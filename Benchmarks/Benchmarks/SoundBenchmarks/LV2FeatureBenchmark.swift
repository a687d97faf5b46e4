import Benchmark
import BenchmarkSupport
import CPatchbayInterleave
import Foundation
import PatchbayAudioGraph
import PatchbayConfig
import PatchbayHost
import PatchbayLV2

// The host's cost around an LV2 feature in the graph (issue 45's floor: at most 50 ns a
// period beyond the plugin's own run). Three things rendered in alternating rounds of 2,000
// 128-frame stereo periods, so all see the same caches and the same machine:
//   - a graph whose one processor is the x42 compressor as a feature (`lv2 = "…"`);
//   - the same graph with no processor (the graph's own work each period: the gate, the MIDI,
//     the checks of the mix), subtracted;
//   - the compressor's own `run`, called through its descriptor on an instance of its own,
//     subtracted.
// What is left is what hosting it as a feature costs: its slot, the controls when they move,
// the mix copied into its inputs and its outputs back, and LV2Instance's run. The copies are
// measured alone too (a fourth loop: the stereo mix split into two channels and joined back,
// as `CPatchbayInterleave` does it): planar LV2 ports against an interleaved mix, which any
// host that mixes interleaved pays. A sample is the median of the rounds'.
func lv2FeatureBenchmark() {
  let withPlugin = BenchmarkMetric.custom("graph with the compressor (ns)", useScalingFactor: false)
  let empty = BenchmarkMetric.custom("graph without it (ns)", useScalingFactor: false)
  let direct = BenchmarkMetric.custom(
    "the plugin's run, called directly (ns)", useScalingFactor: false)
  let cost = BenchmarkMetric.custom("the host's cost (ns)", useScalingFactor: false)
  let copies = BenchmarkMetric.custom(
    "of which the mix split and joined (ns)", useScalingFactor: false)
  let rest = BenchmarkMetric.custom(
    "the host's cost beside the copies (ns)", useScalingFactor: false)
  Benchmark(
    "LV2 feature: the x42 compressor (stereo) in the graph, one 128-frame period, the host's cost",
    configuration: .init(
      metrics: [withPlugin, empty, direct, cost, copies, rest], warmupIterations: 1,
      maxDuration: .seconds(10),
      maxIterations: 20)
  ) { benchmark in
    let uri = "http://gareus.org/oss/lv2/darc#stereo"
    let (hosted, bare) = (graph(lv2: uri), graph(lv2: "urn:patchbay:bench:absent"))
    let instance: LV2Instance
    do {
      instance = try LV2Instance(
        LV2World.shared.plugin(uri: uri), sampleRate: 48_000, maximumFrames: 128)
    } catch {
      fatalError("\(error) — apt-get install x42-plugins (make deps does)")
    }
    let (run, handle) = instance.pluginRun
    let mix = UnsafeMutablePointer<Float>.allocate(capacity: format.periodSamples)
    let (left, right) = (instance.audioInputs[0], instance.audioInputs[1])
    defer { mix.deallocate() }
    let perRound = BenchmarkRun.workload(2_000, smoke: 20)
    var times: [[Int]] = [[], [], [], [], [], []]
    var steady: UInt64 = 0
    for _ in 0..<BenchmarkRun.workload(25, smoke: 1) {
      var round: [Int] = []
      for graph in [hosted.graph, bare.graph] {
        let start = DispatchTime.now().uptimeNanoseconds
        for _ in 0..<perRound {
          mix.update(repeating: 0.25, count: format.periodSamples)
          graph.render(into: mix, frames: 128, steadyTime: steady)
          steady += 128
        }
        round.append(Int(DispatchTime.now().uptimeNanoseconds - start) / perRound)
      }
      let start = DispatchTime.now().uptimeNanoseconds
      for _ in 0..<perRound {
        mix.update(repeating: 0.25, count: format.periodSamples)
        run(handle, 128)
      }
      round.append(Int(DispatchTime.now().uptimeNanoseconds - start) / perRound)
      let copying = DispatchTime.now().uptimeNanoseconds
      for _ in 0..<perRound {
        mix.update(repeating: 0.25, count: format.periodSamples)
        pb_stereo_split(mix, 128, left, right)
        pb_stereo_join(left, right, 128, mix, false)
      }
      let afterCopies = DispatchTime.now().uptimeNanoseconds
      for _ in 0..<perRound { mix.update(repeating: 0.25, count: format.periodSamples) }
      let filling = Int(DispatchTime.now().uptimeNanoseconds - afterCopies) / perRound
      round.append(Int(afterCopies - copying) / perRound - filling)
      for index in 0..<3 { times[index].append(round[index]) }
      times[3].append(round[0] - round[1] - round[2])
      times[4].append(round[3])
      times[5].append(round[0] - round[1] - round[2] - round[3])
    }
    func median(_ values: [Int]) -> Int { values.sorted()[values.count / 2] }
    benchmark.measurement(withPlugin, median(times[0]))
    benchmark.measurement(empty, median(times[1]))
    benchmark.measurement(direct, median(times[2]))
    benchmark.measurement(cost, max(0, median(times[3])))
    benchmark.measurement(copies, max(0, median(times[4])))
    benchmark.measurement(rest, max(0, median(times[5])))
    print("processors: \(hosted.graph.count) with the compressor, \(bare.graph.count) without")
  }
}

/// An app whose root is the LV2 plugin `uri` (optional: a URI not installed leaves a graph with
/// no processor), playing through a graph of its own.
private func graph(lv2 uri: String) -> (app: AppRuntime, graph: ProcessorGraph) {
  do {
    let config = try AppConfig(
      parsing: """
        [app]
        root = "effect"
        [[feature]]
        key = "effect"
        lv2 = "\(uri)"
        optional = true
        """, file: "bench.toml")
    let loader = config.loader()
    let app = try AppRuntime(
      config: config, registry: try config.loadPlugins(with: loader), loader: loader)
    let graph = ProcessorGraph(format: format)
    try app.attach(graph)
    return (app, graph)
  } catch {
    fatalError("\(error)")
  }
}
