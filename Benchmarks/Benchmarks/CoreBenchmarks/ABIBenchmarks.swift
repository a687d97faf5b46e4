import Benchmark
import Foundation
import PatchbayEncoding
import PatchbayHost

/// The Counter plugin built by the root package in release mode (`make bench` builds it).
let counterPlugin: String = {
  let root = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()
  return root.appendingPathComponent(".build/release/libCounter.so").path
}()

/// One Counter instance, loaded once (loading copies and maps a 20 MB library: not measured).
let counterInstance: FeatureHandle = {
  do {
    return try FeatureHandle(feature: try PluginLoader().load(counterPlugin).features[0])
  } catch {
    fatalError("\(error) — run `swift build -c release --product Counter` in the root first")
  }
}()

let abiBenchmarks: @Sendable (Benchmark.Configuration) -> Void = { perAction in
  Benchmark("ABI send into Counter plugin (increment)", configuration: perAction) { benchmark in
    let counter = counterInstance
    let increment = WireValue.action("increment").bytes
    for _ in benchmark.scaledIterations {
      counter.send(increment)
    }
    blackHole(counter)
  }
}
