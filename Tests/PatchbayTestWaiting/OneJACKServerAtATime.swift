import Testing

/// Runs the tests of every suite that has it one at a time, across suites and test targets:
/// for tests that start a JACK server.
///
/// libjack keeps the server its clients talk to in process-wide globals, so a test process
/// with clients of two servers at once crashes inside libjack (it did: a null dereference on
/// the second suite's `jack_client_open`). `.serialized` orders one suite's tests; this orders
/// them across suites.
///
///     @Suite(.highPriority, .serialized, .oneJACKServerAtATime) struct JACKOutputTests { … }
public struct OneJACKServerAtATime: SuiteTrait, TestTrait, TestScoping {
  public init() {}

  public var isRecursive: Bool { true }

  public func provideScope(
    for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
  ) async throws {
    guard testCase != nil else { return try await function() }
    await Self.turns.take()
    do {
      try await function()
    } catch {
      await Self.turns.give()
      throw error
    }
    await Self.turns.give()
  }

  private static let turns = Turns()

  /// Turns taken in the order asked for, without holding a thread while waiting.
  private actor Turns {
    private var taken = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    func take() async {
      guard self.taken else { return self.taken = true }
      await withCheckedContinuation { self.waiting.append($0) }
    }

    func give() {
      if self.waiting.isEmpty { self.taken = false } else { self.waiting.removeFirst().resume() }
    }
  }
}

extension Trait where Self == OneJACKServerAtATime {
  /// Runs a suite's tests one at a time with those of every other suite that has it
  /// (``OneJACKServerAtATime``).
  public static var oneJACKServerAtATime: Self { Self() }
}
