import PatchbayEncoding
import PatchbayHost
import PatchbayLoader

/// Fuzzed actions: long random sequences of valid actions, and random bytes and texts.
extension ValidationSuite {
  static let fuzz: [ValidationTest] = [
    ValidationTest(
      "fuzz.actions", level: 5,
      "random valid actions (10,000 at level 5): no crash, no hang, every snapshot decodes"
    ) { context in
      let plugin = try context.load()
      var sent = 0
      for feature in plugin.features {
        let actions = ActionGenerator(feature).sequence(context.scaled(10_000), seed: context.seed)
        let instance = try context.instance(of: feature)
        let indices = context.keep ?? Array(actions.indices)
        for (position, index) in indices.enumerated() {
          context.step("reduce \(actions[index].actionText)", action: index)
          instance.send(actions[index].bytes)
          // A crash or hang this process survives (a WebAssembly trap) fails as one that
          // ends a native plugin's process does, at once: fuzzing on would meet it again.
          if instance.crashes > 0 { context.crashed(instance.failures.last ?? "trapped") }
          if position % 100 == 99 || position == indices.count - 1 {
            context.step("snapshot after action \(index)", action: index)
            let bytes = try instance.snapshot()
            do {
              _ = try WireValue(decoding: bytes)
            } catch {
              throw ValidationFailure(
                "\(feature.id): the snapshot after action \(index + 1) does not decode: \(error)",
                reproduction: Reproduction(
                  seed: context.seed, actions: indices[...position].map { actions[$0].actionText },
                  feature: feature.id))
            }
          }
        }
        sent += indices.count
      }
      return .pass("\(sent) action(s), every snapshot decoded")
    },
    ValidationTest(
      "fuzz.garbage", level: 4,
      "random bytes and texts as actions: refused with a reason, the state unchanged"
    ) { context in
      let plugin = try context.load()
      var refused = 0
      var random = context.random(2)
      let alphabet = Array("abcxyz_()[]{}:,\"\\ 0123456789.-e\u{1b}\n".unicodeScalars)
      for feature in plugin.features {
        let instance = try context.instance(of: feature)
        for round in 0..<context.scaled(200) {
          let before = try instance.snapshot()
          let failures = instance.failures.count
          let bytes = (0..<Int(random.next() % 64)).map { _ in
            UInt8(truncatingIfNeeded: random.next())
          }
          context.step("reduce \(bytes.count) random bytes (round \(round))")
          instance.send(bytes)
          if try instance.snapshot() != before {
            guard instance.failures.count == failures else {
              throw ValidationFailure(
                "\(feature.id): \(bytes.count) random bytes were refused "
                  + "(\(instance.failures.last ?? "")) but changed the state")
            }
          } else if instance.failures.count > failures {
            refused += 1
          }
          let text = String(
            String.UnicodeScalarView(
              (0..<Int(random.next() % 40)).map { _ in
                alphabet[Int(random.next() % UInt64(alphabet.count))]
              }))
          context.step("parse the text \(text.debugDescription)")
          if (try? instance.parseAction(text)) == nil { refused += 1 }
        }
      }
      return .pass("\(refused) garbage action(s) refused, the state unchanged each time")
    },
  ]
}
