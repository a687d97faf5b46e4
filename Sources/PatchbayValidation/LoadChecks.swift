import Foundation
import PatchbayEncoding
import PatchbayHost
import PatchbayLoader

/// Load: the entry and descriptors within the loader's bounds, loading again, two generations
/// side by side, and the time a load takes.
extension ValidationSuite {
  static let load: [ValidationTest] = [
    ValidationTest(
      "load.descriptor", level: 1,
      "the entry returns a descriptor within the loader's bounds, and the time a load takes"
    ) { context in
      let start = ContinuousClock.now
      let plugin = try context.load()
      let took = ContinuousClock.now - start
      let actions = plugin.features.reduce(0) { $0 + $1.actions.count }
      return .pass(
        "\(plugin.id) \(plugin.version), ABI \(plugin.abiMajor).\(plugin.abiMinor): "
          + "\(plugin.features.count) feature(s), \(actions) action(s), "
          + "\(plugin.functions.count) function(s); loaded in \(milliseconds(took))")
    },
    ValidationTest(
      "load.again", level: 2,
      "loaded, used and dropped 10 times: each load declares the same features and actions, "
        + "and its instances start from the same state"
    ) { context in
      let first = try context.load()
      let initial = try first.features.map { try context.instance(of: $0).snapshot() }
      for load in 2...10 {
        // Each load is a new generation; the one before is dropped (the host never dlcloses a
        // plugin, so this is what unloading it is).
        let again = try context.load()
        guard surface(again) == surface(first) else {
          throw ValidationFailure(
            "load \(load) declares \(surface(again)), the first declared \(surface(first))")
        }
        for (feature, state) in zip(again.features, initial) {
          guard try context.instance(of: feature).snapshot() == state else {
            throw ValidationFailure(
              "\(feature.id): an instance of load \(load) starts from another state than the "
                + "first load's: state kept in a global that outlives a load?")
          }
        }
      }
      return .pass(
        "10 loads, one surface and one initial state: "
          + first.features.map(\.id).joined(separator: ", "))
    },
    ValidationTest(
      "load.generations", level: 2,
      "two generations side by side: an instance of each, their states apart"
    ) { context in
      let old = try context.load()
      let new = try context.load()
      for (feature, other) in zip(old.features, new.features) {
        let a = try context.instance(of: feature)
        let b = try context.instance(of: other)
        let before = try b.snapshot()
        for (index, action) in ActionGenerator(feature).sequence(20, seed: context.seed)
          .enumerated()
        {
          context.step("reduce \(action.actionText)", action: index)
          a.send(action.bytes)
          guard try b.snapshot() == before else {
            throw ValidationFailure(
              "\(feature.id): action \(index + 1) to the first generation's instance changed "
                + "the second's state: the generations share state (a static or global variable?)")
          }
        }
      }
      return .pass("generations \(old.generation) and \(new.generation) kept apart")
    },
  ]
}

/// Features, their actions and functions, as one comparable text.
func surface(_ plugin: LoadedPlugin) -> String {
  plugin.features.map { feature in
    "\(feature.id)[\(feature.actions.map(\.signature).joined(separator: ","))]"
  }.joined(separator: " ") + " functions[\(plugin.functions.map(\.name).joined(separator: ","))]"
}

func milliseconds(_ duration: Duration) -> String {
  let (seconds, attoseconds) = duration.components
  let ms = Double(seconds) * 1_000 + Double(attoseconds) / 1e15
  return ms < 10 ? String(format: "%.2f ms", ms) : String(format: "%.0f ms", ms)
}
