import PatchbayPlugin

/// The demo's root: a menu. Choosing an entry asks the host to push that feature. Written with
/// `@Reducer`, as a TCA feature is (Counter shows the same without macros).
///
/// Actions: `up`, `down`, `select(index: 1)`, `open`. It observes its `tallies` collection
/// (`observe = ["tallies"]` in the config), so every tally's action also reaches it as
/// `tallies(element(id: "a", action: increment))`.
@Reducer
@Feature
public struct Home {
  public static let id = "dev.patchbay.home"
  public static let summary = "A menu of the app's screens."

  @ObservableState
  public struct State: Codable, Equatable, Sendable {
    /// Config keys of the screens, with their titles.
    public var entries = [
      Entry(node: "counter", title: "Counter (Swift plugin)"),
      Entry(node: "echo", title: "Echo (C plugin)"),
      Entry(node: "practice", title: "Practice (a quiz: parent, child, delegate)"),
    ]
    public var selected = 0
    public var opened = 0
    /// The last action a tally reduced, as `a: increment`.
    public var lastTally: String?

    public init() {}
  }

  public struct Entry: Codable, Equatable, Sendable {
    public var node: String
    public var title: String
  }

  public enum Action: Codable, Equatable, Sendable {
    /// Selects the entry above
    case up
    /// Selects the entry below
    case down
    /// Pushes the selected entry's screen
    case open
    /// Selects an entry
    case select(index: Int)
    /// A tally's action, forwarded by the host (`observe = ["tallies"]`)
    @SentBy(.host) case tallies(TallyAction)
  }

  /// An action of one of the tallies, forwarded by the host.
  public enum TallyAction: Codable, Equatable, Sendable, ActionCaseField {
    case element(id: String, action: ActionName)
  }

  public init() {}

  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .up:
      state.selected = max(0, state.selected - 1)
      return .none
    case .down:
      state.selected = min(state.entries.count - 1, state.selected + 1)
      return .none
    case .select(let index):
      guard state.entries.indices.contains(index) else { return .none }
      state.selected = index
      return .none
    case .open:
      state.opened += 1
      return .navigate(.push(state.entries[state.selected].node))
    case .tallies(.element(let id, let action)):
      state.lastTally = "\(id): \(action.name)"
      return .none
    }
  }

  public static func render(_ state: State) -> String {
    (["Patchbay"]
      + state.entries.enumerated().map { index, entry in
        (index == state.selected ? "▸ " : "  ") + entry.title
      } + (state.lastTally.map { ["", "Last tally: \($0)"] } ?? [])).joined(separator: "\n")
  }
}

#plugin(id: "dev.patchbay.home-plugin", name: "Home", version: "1.0.0", features: [Home.self])
