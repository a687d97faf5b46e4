import PatchbayEncoding
import PatchbayHost
import PatchbayLoader

/// Schema: every declared action reads from its text form and writes back the same text, and
/// every field takes its edge values without harm.
extension ValidationSuite {
  static let schema: [ValidationTest] = [
    ValidationTest(
      "schema.round-trip", level: 1,
      "every declared action parses from its text and formats back to the same text"
    ) { context in
      let plugin = try context.load()
      var checked = 0
      var refused: [String] = []
      for feature in plugin.features {
        let generator = ActionGenerator(feature)
        var random = context.random()
        for action in generator.actions {
          // A field may take only some values (a waveform's name): the first of eight
          // generated ones the feature takes is written back.
          var taken = false
          for _ in 0..<8 where !taken {
            let text = generator.value(of: action, edges: false, &random).actionText
            context.step("parse \(text)")
            guard let bytes = try? feature.parseAction(text) else { continue }
            context.step("format the bytes of \(text)")
            let formatted = try feature.formatAction(bytes)
            guard formatted == text else {
              throw ValidationFailure(
                "\(feature.id): '\(text)' parses, then formats as '\(formatted)'")
            }
            guard try feature.parseAction(formatted) == bytes else {
              throw ValidationFailure(
                "\(feature.id): '\(formatted)' parses to other bytes than '\(text)' did")
            }
            taken = true
            checked += 1
          }
          if !taken { refused.append(action.signature) }
        }
      }
      if !refused.isEmpty {
        return .pass(
          "\(checked) action(s) read and written back; refused with a reason for all of eight "
            + "generated values: \(refused.joined(separator: ", "))")
      }
      return .pass("\(checked) action(s) read and written back")
    },
    ValidationTest(
      "schema.edges", level: 2,
      "each field at its edges (0, ±2⁶³, NaN, ±∞, empty and long strings, nested lists): "
        + "taken or refused, never crashed on"
    ) { context in
      let plugin = try context.load()
      var sent = 0
      var refused = 0
      for feature in plugin.features {
        let instance = try context.instance(of: feature)
        for action in ActionGenerator(feature).actions {
          for (index, field) in action.fields.enumerated() {
            for edge in ActionGenerator.edges(field.type) {
              var random = context.random(UInt64(sent))
              guard
                case .case(let name, var fields) = ActionGenerator(feature)
                  .value(of: action, edges: false, &random)
              else { continue }
              fields[index].value = edge
              let value = WireValue.case(name, fields)
              let before = try instance.snapshot()
              let failures = instance.failures.count
              context.step("reduce \(value.actionText)")
              instance.send(value.bytes)
              let after = try instance.snapshot()
              sent += 1
              if instance.failures.count > failures {
                refused += 1
                guard after == before else {
                  throw ValidationFailure(
                    "\(feature.id): \(value.actionText) was refused "
                      + "(\(instance.failures.last ?? "")) but changed the state")
                }
              }
            }
          }
        }
      }
      return .pass("\(sent) edge value(s) sent, \(refused) refused with a reason")
    },
  ]
}
