import PatchbayEncoding
import PatchbayHost
import PatchbayLoader

/// Lifecycle: many instances made and destroyed, ten at once sharing nothing, and instances
/// destroyed while their effects still run.
extension ValidationSuite {
  static let lifecycle: [ValidationTest] = [
    ValidationTest("lifecycle.create-destroy", level: 3, "1,000 instances created and destroyed") {
      context in
      let plugin = try context.load()
      // A WebAssembly instance is a module instance of its own, whose code the interpreter
      // translates afresh (25-40 ms each in a debug build): 100 of them. What they share with
      // the host is the same code a native plugin's 1,000 go through, and what one leaks inside
      // its memory goes with it.
      let wasm = plugin.path.hasSuffix(".wasm")
      for feature in plugin.features {
        for _ in 0..<(wasm ? 100 : 1_000) { _ = try context.instance(of: feature) }
      }
      return .pass(
        (wasm ? "100 (WebAssembly: a module instance each)" : "1,000")
          + " of each of \(plugin.features.count) feature(s)")
    },
    ValidationTest(
      "lifecycle.ten-instances", level: 3,
      "ten instances at once: actions to one leave the other nine as they were"
    ) { context in
      let plugin = try context.load()
      for feature in plugin.features {
        let instances = try (0..<10).map { _ in try context.instance(of: feature) }
        let before = try instances.map { try $0.snapshot() }
        let actions = ActionGenerator(feature).sequence(context.scaled(50), seed: context.seed)
        // After each action one neighbour is looked at (a count can come back to where it was);
        // after the last, all nine.
        for (position, action) in actions.enumerated() {
          context.step("reduce \(action.actionText)", action: position)
          instances[0].send(action.bytes)
          let neighbour = 1 + position % 9
          guard try instances[neighbour].snapshot() == before[neighbour] else {
            throw ValidationFailure(
              "\(feature.id): actions sent to instance 1 changed instance \(neighbour + 1)'s "
                + "state: instances share state (a static or global variable?)",
              reproduction: Reproduction(
                seed: context.seed, actions: actions[...position].map(\.actionText),
                feature: feature.id))
          }
        }
        for index in 1..<10 where try instances[index].snapshot() != before[index] {
          throw ValidationFailure(
            "\(feature.id): actions sent to instance 1 changed instance \(index + 1)'s state: "
              + "instances share state (a static or global variable?)",
            reproduction: Reproduction(
              seed: context.seed, actions: actions.map(\.actionText), feature: feature.id))
        }
      }
      return .pass("\(plugin.features.count) feature(s), 10 instances each, nothing shared")
    },
    ValidationTest(
      "lifecycle.destroy-with-effects", level: 4,
      "instances destroyed right after actions, their effects still running"
    ) { context in
      let plugin = try context.load()
      var sent = 0
      for feature in plugin.features {
        let generator = ActionGenerator(feature)
        for round in 0..<context.scaled(20) {
          let instance = try context.instance(of: feature)
          for action in generator.sequence(5, seed: context.seed &+ UInt64(round)) {
            context.step("reduce \(action.actionText), then destroy")
            instance.send(action.bytes)
            sent += 1
          }
          context.step("destroy \(feature.id) with effects running")
        }
      }
      return .pass("\(sent) actions, each instance destroyed right after its last")
    },
  ]
}
