import PatchbayPlugin

/// Three sums. When the last is answered it tells its parent, with a delegate action, and
/// starts over.
@Feature
public struct Quiz {
  public static let id = "dev.patchbay.quiz"
  public static let summary = "Three sums; reports the score to its parent."

  static let questions: [(text: String, answer: Int)] = [("2 + 3", 5), ("7 × 6", 42), ("9 − 4", 5)]

  public struct State: Codable, Equatable, Sendable {
    public var question = 0
    public var score = 0
    public init(question: Int = 0, score: Int = 0) {
      (self.question, self.score) = (question, score)
    }
  }

  public enum Action: Codable, Equatable, Sendable {
    /// Answers the current question
    case answer(Int)
    /// Tells its parent the score when the last sum is answered
    @SentBy(.effect) case delegate(Delegate)
  }

  public enum Delegate: Codable, Equatable, Sendable, ActionCaseField {
    case finished(score: Int)
  }

  public init() {}

  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .answer(let answer):
      if answer == Self.questions[state.question].answer { state.score += 1 }
      state.question += 1
      guard state.question == Self.questions.count else { return .none }
      let score = state.score
      state = State()
      return .send(.delegate(.finished(score: score)))
    case .delegate:
      return .none
    }
  }

  public static func render(_ state: State) -> String {
    "Question \(state.question + 1) of \(Self.questions.count): \(Self.questions[state.question].text) = ?"
  }
}

/// Its parent receives it as `quiz(…)`: a case, as `inspect` shows.
extension Quiz.Action: ActionCaseField {}
