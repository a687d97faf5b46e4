import PatchbayEncoding
import PatchbayHost
import PatchbayLoader

/// Determinism: the same actions from the same state give the same states, action by action.
extension ValidationSuite {
  static let determinism: [ValidationTest] = [
    ValidationTest(
      "determinism", level: 4,
      "the same seed and actions give the same state after each action, twice"
    ) { context in
      let plugin = try context.load()
      var compared = 0
      for feature in plugin.features {
        let actions = ActionGenerator(feature).sequence(context.scaled(500), seed: context.seed)
        let first = try states(after: actions, feature, context)
        let second = try states(after: actions, feature, context)
        if let index = first.indices.first(where: { first[$0] != second[$0] }) {
          throw ValidationFailure(
            "\(feature.id): the state after action \(index + 1) (\(actions[index].actionText)) "
              + "differs between two runs of the same actions: it depends on something outside "
              + "the state and the action (a clock, a random source not taken from dependencies)",
            reproduction: Reproduction(
              seed: context.seed, actions: actions[...index].map(\.actionText), feature: feature.id)
          )
        }
        compared += actions.count
      }
      return .pass("\(compared) state(s) equal across two runs")
    }
  ]
}

/// The snapshot after each action, sent to a fresh instance whose effects are muted (their
/// actions arrive when their threads run, which no seed fixes).
private func states(
  after actions: [WireValue], _ feature: LoadedFeature, _ context: ValidationContext
) throws -> [[UInt8]] {
  let instance = try context.instance(of: feature)
  instance.muteEffects()
  return try actions.enumerated().map { index, action in
    context.step("reduce \(action.actionText)", action: index)
    instance.send(action.bytes)
    return try instance.snapshot()
  }
}
