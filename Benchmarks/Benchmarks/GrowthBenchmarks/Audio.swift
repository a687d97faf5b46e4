import Benchmark
import BenchmarkSupport
import Foundation
import PatchbayAudioDevice
import PatchbayAudioGraph
import PatchbayConfig
import PatchbayHost

/// A graph of `processors` that do nothing (the C fixture's `emptyprocessor`, a collection
/// under a Counter), rendered as the audio thread renders it, with its mix buffer.
final class EmptyProcessors: @unchecked Sendable {
  static let format = AudioFormat(sampleRate: 48_000, channels: 2, periodFrames: 128)

  let app: AppRuntime
  let graph = ProcessorGraph(format: EmptyProcessors.format)
  let mix = UnsafeMutablePointer<Float>.allocate(capacity: EmptyProcessors.format.periodSamples)
  let processors: Int
  private var steady: UInt64 = 0

  init(processors: Int) throws {
    let ids = (0..<processors).map { "\"e\($0)\"" }.joined(separator: ", ")
    let config = try AppConfig(
      parsing: AppConfig.oneFeature(
        "dev.patchbay.counter", of: "Counter", key: "top",
        also: [BenchmarkRun.fixture("emptyprocessor")],
        tables: """
          [[feature]]
          key = "empties"
          id = "dev.patchbay.fixture-empty-processor"
          parent = "top"
          kind = "collection"
          ids = [\(ids)]
          """), file: "processors.toml")
    let loader = config.loader(extraSearchPaths: [BenchmarkRun.rootBuild.path])
    self.app = try AppRuntime(
      config: config, registry: try config.loadPlugins(with: loader), loader: loader)
    self.processors = processors
    self.mix.initialize(repeating: 0, count: Self.format.periodSamples)
    try self.app.attach(self.graph)
    guard self.graph.count == processors else {
      throw GrowthError("the graph has \(self.graph.count) processors, not \(processors)")
    }
  }

  deinit { self.mix.deallocate() }

  /// One 128-frame period, as the audio thread renders it.
  func period() {
    self.graph.render(into: self.mix, frames: 128, steadyTime: self.steady)
    self.steady += 128
  }
}

let audioSizes = [1, 4, 16, 64, 256]

let audioBenchmarks: @Sendable () -> Void = {
  // One period of a graph of N processors that do nothing, with the safety checks on (each
  // output checked for NaN and infinities, the mix clipped).
  Growth("audio: one 128-frame period of empty processors", per: "processors", sizes: audioSizes)
    .register {
      try EmptyProcessors(processors: $0)
    } measure: { benchmark, graph in
      for _ in benchmark.scaledIterations { graph.period() }
    }

  // The host's cost around each processor call: 1,000 periods' time ÷ (1,000 × N), a sample.
  // Flat means a processor costs the same in a graph of 256 as alone.
  Growth("audio: the host around one processor call", per: "processors", sizes: audioSizes)
    .registerFigure("ns per processor", samples: BenchmarkRun.workload(20, smoke: 1)) { count in
      let graph = try EmptyProcessors(processors: count)
      for _ in 0..<100 { graph.period() }
      let periods = 1_000
      let start = DispatchTime.now().uptimeNanoseconds
      for _ in 0..<periods { graph.period() }
      return Int(DispatchTime.now().uptimeNanoseconds - start) / (periods * count)
    }
}
