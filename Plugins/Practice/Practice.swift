import PatchbayPlugin

/// The parent of a `Quiz`: it hears the quiz's `finished(score:)` delegate action and pushes a
/// `Results` screen.
@Feature
public struct Practice {
  public static let id = "dev.patchbay.practice"
  public static let summary = "Runs quizzes and keeps the best score."

  public struct State: Codable, Equatable, Sendable {
    public var attempts = 0
    public var best = 0
    public init(attempts: Int = 0, best: Int = 0) { (self.attempts, self.best) = (attempts, best) }
  }

  public enum Action: Codable, Equatable, Sendable {
    /// Forgets the scores
    case reset
    /// What the `quiz` child tells its parent (the host forwards its delegate actions).
    @SentBy(.host) case quiz(Quiz.Action)
  }

  public init() {}

  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .reset:
      state = State()
      return .none
    case .quiz(.delegate(.finished(let score))):
      state.attempts += 1
      state.best = max(state.best, score)
      return .navigate(.push("results", state: Results.State(score: score, outOf: 3)))
    case .quiz:
      return .none
    }
  }

  public static func render(_ state: State) -> String {
    "Practice — \(state.attempts) attempt(s), best \(state.best) of 3"
  }
}

/// Shows a quiz's score; `again` goes back to the quiz, `home` to the root.
@Feature
public struct Results {
  public static let id = "dev.patchbay.results"
  public static let summary = "Shows a quiz's score."
  public static var initialState: State { State(score: 0, outOf: 0) }

  public struct State: Codable, Equatable, Sendable {
    public var score: Int
    public var outOf: Int
    public init(score: Int, outOf: Int) { (self.score, self.outOf) = (score, outOf) }
  }

  public enum Action: Codable, Equatable, Sendable {
    /// Back to the quiz
    case again
    /// Back to the menu
    case home
  }

  public init() {}

  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .again: .navigate(.pop)
    case .home: .navigate(.popToRoot)
    }
  }

  public static func render(_ state: State) -> String {
    "You scored \(state.score) of \(state.outOf)." + (state.score == state.outOf ? " Perfect!" : "")
  }
}

#plugin(
  id: "dev.patchbay.practice-plugin", name: "Practice", version: "1.0.0",
  features: [Practice.self, Quiz.self, Results.self])
