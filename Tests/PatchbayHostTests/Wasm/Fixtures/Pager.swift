import PatchbayEmbedded

/// A feature in Embedded Swift that asks the app to navigate (`Effect.navigate`): `open` pushes
/// the config's node `page` onto its stack, `close` pops it. Its module imports
/// `patchbay.navigate` because it navigates; the Counter's, which does not, has no such import.
@Feature
struct Pager {
  static let id: StaticString = "dev.patchbay.pager"

  struct State {
    var opened: Int64 = 0
  }

  enum Action {
    /// Pushes the page
    case open
    /// Pops it
    case close
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .open:
      state.opened += 1
      return .navigate(.push("page"))
    case .close:
      return .navigate(.pop)
    }
  }

  static func render(_ state: State) -> String { "opened \(state.opened)" }
}

#plugin(id: "dev.patchbay.pager-plugin", name: "Pager", version: "1.0.0", features: [Pager.self])
