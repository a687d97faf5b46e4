import Testing

/// Runs each test of a suite at high priority, so that the tasks it starts (a store's effects,
/// ``eventually(seconds:_:)``'s polls) come back ahead of the tests still waiting to start.
///
/// The test runner starts every test at once at medium priority, so a task that suspends —
/// `Task.yield()`, `Task.sleep` — is queued behind hundreds of tests not yet begun, and a
/// synchronous one among them holds one of the pool's two threads while it runs. Loaded, a
/// store's effect stalled there for the whole 300 s of `eventually` (L23, StoreTests). At high
/// priority it is not queued behind them; the test still checks order and state, never time.
///
///     @Suite(.highPriority) struct StoreTests { … }
public struct HighPriority: SuiteTrait, TestTrait, TestScoping {
  public init() {}

  public var isRecursive: Bool { true }

  public func provideScope(
    for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
  ) async throws {
    guard testCase != nil else { return try await function() }
    // The task is waited for before this returns: `function` does not outlive the call.
    try await withoutActuallyEscaping(function) { function in
      try await Task(priority: .high) { try await function() }.value
    }
  }
}

extension Trait where Self == HighPriority {
  /// Runs a suite's tests, and the tasks they start, at high priority (``HighPriority``).
  public static var highPriority: Self { Self() }
}
