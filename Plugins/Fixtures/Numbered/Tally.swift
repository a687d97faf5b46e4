import PatchbayPlugin

/// The feature every numbered copy exports (under its own id): a counter with a step, the size
/// of a small real plugin.
@Feature
public struct Tally {
  public static let id = "dev.patchbay.fixture.tally"

  public struct State: Codable, Equatable, Sendable {
    public var count = 0
    public var step = 1
  }

  public enum Action: Codable, Equatable, Sendable {
    /// Adds the step
    case increment
    /// Subtracts the step
    case decrement
    /// Back to zero
    case reset
    /// Sets the step
    case setStep(by: Int)
  }

  public init() {}

  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .increment: state.count += state.step
    case .decrement: state.count -= state.step
    case .reset: state.count = 0
    case .setStep(let step): state.step = step
    }
    return .none
  }
}
