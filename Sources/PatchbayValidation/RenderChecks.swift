import PatchbayEncoding
import PatchbayHost
import PatchbayLoader

/// Render: every state a run reaches renders, within the view limit, as plain text.
extension ValidationSuite {
  static let render: [ValidationTest] = [
    ValidationTest(
      "render", level: 2,
      "every reachable state renders within the view limit, with no control character but newline"
    ) { context in
      let plugin = try context.load()
      var rendered = 0
      for feature in plugin.features {
        let actions = ActionGenerator(feature).sequence(context.scaled(200), seed: context.seed)
        let instance = try context.instance(of: feature)
        for index in -1..<actions.count {
          if index >= 0 {
            context.step("reduce \(actions[index].actionText)", action: index)
            instance.send(actions[index].bytes)
          }
          context.step("render", action: max(index, 0))
          let text = try instance.render()
          if let bad = text.unicodeScalars.first(where: {
            $0 != "\n" && ($0.value < 0x20 || (0x7F..<0xA0).contains($0.value))
          }) {
            throw ValidationFailure(
              "\(feature.id): the view after action \(index + 1) holds the control character "
                + "U+\(String(bad.value, radix: 16, uppercase: true)); a view is plain text "
                + "(the host draws it)",
              reproduction: Reproduction(
                seed: context.seed, actions: actions.prefix(index + 1).map(\.actionText),
                feature: feature.id))
          }
          rendered += 1
        }
      }
      return .pass("\(rendered) view(s), plain text within the limit")
    }
  ]
}
