import PatchbayEncoding
import PatchbayHost
import PatchbayLoader

/// State: a snapshot restores to the same bytes after every step; corrupt bytes are refused at
/// create; `migrate` answers both ways where the feature declares it.
extension ValidationSuite {
  static let state: [ValidationTest] = [
    ValidationTest(
      "state.round-trip", level: 3,
      "after each action, snapshot → create from it → snapshot gives the same bytes"
    ) { context in
      let plugin = try context.load()
      var steps = 0
      for feature in plugin.features {
        let actions = ActionGenerator(feature).sequence(context.scaled(200), seed: context.seed)
        let instance = try context.instance(of: feature)
        for (index, action) in actions.enumerated() {
          context.step("reduce \(action.actionText)", action: index)
          instance.send(action.bytes)
          let bytes = try instance.snapshot()
          let copy = try context.instance(of: feature, restoring: bytes)
          context.step("snapshot the restored copy", action: index)
          guard try copy.snapshot() == bytes else {
            throw ValidationFailure(
              "\(feature.id): the state after action \(index + 1) does not restore to itself "
                + "(snapshot → create → snapshot differs)",
              reproduction: Reproduction(
                seed: context.seed, actions: actions[...index].map(\.actionText),
                feature: feature.id))
          }
          steps += 1
        }
      }
      return .pass("\(steps) state(s) restored byte for byte")
    },
    ValidationTest(
      "state.corrupt", level: 3,
      "empty, truncated and three random 1 MB state blobs are refused at create, not crashed on"
    ) { context in
      let plugin = try context.load()
      var refused = 0
      for feature in plugin.features {
        let good = try context.instance(of: feature).snapshot()
        var random = context.random(1)
        var blobs: [(String, [UInt8])] = [
          ("empty", []), ("truncated by one byte", Array(good.dropLast())),
          ("truncated to half", Array(good.prefix(good.count / 2))),
        ]
        for index in 1...3 {
          blobs.append(
            (
              "random 1 MB blob \(index)",
              (0..<1_048_576).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            ))
        }
        for (what, bytes) in blobs where bytes != good {
          context.step("create \(feature.id) from \(what)")
          do {
            let instance = try FeatureHandle(feature: feature, restoring: bytes)
            // Taking it is a failure only if the state it holds is not one it can restore.
            let taken = try instance.snapshot()
            _ = try FeatureHandle(feature: feature, restoring: taken)
            throw ValidationFailure(
              "\(feature.id): create took \(what) (\(bytes.count) bytes) as a state; it "
                + "must refuse bytes it did not write")
          } catch is FeatureCallError {
            refused += 1
          }
        }
      }
      return .pass("\(refused) corrupt state(s) refused with a reason")
    },
    ValidationTest(
      "state.migrate", level: 4,
      "migrate answers, where declared: its own schema and a schema it cannot know, both ways"
    ) { context in
      let plugin = try context.load()
      let migrating = plugin.features.filter(\.migrates)
      guard !migrating.isEmpty else { return .skip("no feature declares migrate") }
      for feature in migrating {
        let state = try context.instance(of: feature).snapshot()
        for schema in [feature.schemaVersion &- 1, feature.schemaVersion &+ 1, 0, .max] {
          context.step("migrate \(feature.id) from schema \(schema)")
          do {
            let migrated = try feature.migrate(from: schema, state: state)
            _ = try context.instance(of: feature, restoring: migrated)
          } catch is FeatureCallError {
            continue  // refused with a reason: what a schema it does not know should get
          }
        }
      }
      return .pass("\(migrating.count) feature(s) migrate or refuse with a reason")
    },
  ]
}
