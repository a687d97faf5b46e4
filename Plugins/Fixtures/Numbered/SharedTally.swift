import PatchbayPlugin

/// A count every copy shares, as TCA code writes it: `@Shared(.inMemory("tally"))`. Two copies
/// loaded as two plugins (`libSharedLeft.so`, `libSharedRight.so`) hold one value through the
/// host (docs/SHARED.md, "@Shared between plugins").
@Feature
public struct SharedTally {
  public static let id = "dev.patchbay.fixture.sharedtally"

  public struct State: Codable, Equatable, Sendable {
    @Shared(.inMemory("tally")) public var tally = 0
    /// How many times this instance itself changed the tally.
    public var changes = 0
  }

  public enum Action: Codable, Equatable, Sendable {
    /// Adds one to the shared tally
    case increment
    /// Adds one to it from an effect, outside the reducer
    case incrementLater
    /// Sets the shared tally
    case set(Int)
  }

  public init() {}

  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .increment:
      state.$tally.withLock { $0 += 1 }
      state.changes += 1
      return .none
    case .incrementLater:
      state.changes += 1
      return .run { [tally = state.$tally] _ in tally.withLock { $0 += 1 } }
    case .set(let value):
      state.$tally.withLock { $0 = value }
      state.changes += 1
      return .none
    }
  }
}
