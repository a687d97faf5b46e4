import PatchbayABI
import PatchbayEncoding
import PatchbayHost
import PatchbayLoader
import PatchbayStateDiff

/// `changed_fields` (ABI 2.7) tells the truth: after each action, every top-level field whose
/// bytes changed between the snapshots before and after is named, with the bytes the snapshot
/// after has, and no field is named with other bytes. A plugin that leaves one out makes
/// `--print-changes` miss a change, silently. In this process only: an isolated plugin's host
/// takes snapshots instead (`changed_fields` does not cross the channel).
extension ValidationSuite {
  static let changedFields: [ValidationTest] = [
    ValidationTest(
      "state.changed-fields", level: 3, inProcessOnly: true,
      "where changed_fields is given: after each action, it names every field that changed, "
        + "with its value now"
    ) { context in
      let plugin = try context.load()
      var checked = 0
      for feature in plugin.features {
        let actions = ActionGenerator(feature).sequence(context.scaled(200), seed: context.seed)
        let instance = try context.instance(of: feature)
        var before = try instance.snapshot()
        for (index, action) in actions.enumerated() {
          context.step("reduce \(action.actionText)", action: index)
          let reduced = instance.reducedCount
          instance.send(action.bytes)
          guard instance.reducedCount > reduced else { continue }  // refused: nothing changed
          context.step("changed_fields after it", action: index)
          let changed = instance.withInstance { $0.changedFields(limit: 16 << 20) }
          let after = try instance.snapshot()
          defer { before = after }
          guard changed.0 != PB_ERR_UNSUPPORTED else { continue }
          let failure = { (what: String) in
            ValidationFailure(
              "\(feature.id): after action \(index + 1) (\(action.actionText)), changed_fields "
                + what,
              reproduction: Reproduction(
                seed: context.seed, actions: actions[...index].map(\.actionText),
                feature: feature.id))
          }
          guard changed.0 == PB_OK, let bytes = changed.1 else {
            throw failure("failed (status \(changed.0.rawValue))")
          }
          if let wrong = Self.misreport(bytes, before: before, after: after) {
            throw failure(wrong)
          }
          checked += 1
        }
      }
      guard checked > 0 else { return .skip("no feature has changed_fields") }
      return .pass("\(checked) action(s): every changed field named, with its value")
    }
  ]

  /// What `changed` says wrong about the change from `before` to `after` (snapshot bytes), in
  /// words; nil when it names exactly the fields that changed, each with its value after.
  static func misreport(_ changed: [UInt8], before: [UInt8], after: [UInt8]) -> String? {
    guard let told = StateDiff.fields(of: changed) else {
      return "wrote bytes that are not a record of fields"
    }
    guard let old = StateDiff.fields(of: before), let new = StateDiff.fields(of: after) else {
      return "was given, but the state is not a record: leave changed_fields out"
    }
    let was = Dictionary(old, uniquingKeysWith: { $1 })
    let now = Dictionary(new, uniquingKeysWith: { $1 })
    let named = Dictionary(told, uniquingKeysWith: { $1 })
    for (name, value) in new where was[name] != value && named[name] == nil {
      return "left out `\(name)`, which changed"
    }
    for (name, value) in told where now[name] != value {
      return now[name] == nil
        ? "named `\(name)`, which the snapshot does not have"
        : "wrote `\(name)` with other bytes than the snapshot's"
    }
    return nil
  }
}
