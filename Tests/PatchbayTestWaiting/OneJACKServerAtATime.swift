import Synchronization
import Testing

/// Runs the tests of every suite that has it one at a time, across suites and test targets:
/// for tests that start a JACK server.
///
/// libjack keeps the server its clients talk to in process-wide globals, so a test process
/// with clients of two servers at once crashes inside libjack (it did: a null dereference on
/// the second suite's `jack_client_open`, and clients of one server waited forever on another
/// server's semaphores). `.serialized` orders one suite's tests; this orders them across
/// suites. (Its first version took the turn only for a test *case* scope, which swift-testing
/// does not ask for with a plain test: the suites ran side by side and CI hung.)
///
///     @Suite(.highPriority, .serialized, .oneJACKServerAtATime) struct JACKOutputTests { … }
public struct OneJACKServerAtATime: SuiteTrait, TestTrait, TestScoping {
  public init() {}

  public var isRecursive: Bool { true }

  public func provideScope(
    for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
  ) async throws {
    // Once per test, whichever scope swift-testing asks for first (the test's or its case's):
    // a test that holds the turn does not wait for it again.
    guard !test.isSuite, !Self.holdsTurn else { return try await function() }
    await Self.turns.take()
    let holders = Self.holders.add(1, ordering: .relaxed).newValue
    precondition(holders == 1, "two tests hold the JACK turn at once")
    do {
      try await Self.$holdsTurn.withValue(true) { try await function() }
    } catch {
      Self.holders.subtract(1, ordering: .relaxed)
      await Self.turns.give()
      throw error
    }
    Self.holders.subtract(1, ordering: .relaxed)
    await Self.turns.give()
  }

  /// Tests holding the turn now: never more than one (checked, so a trait that stopped
  /// serializing crashes the run rather than libjack crashing it at random).
  private static let holders = Atomic<Int>(0)

  /// Whether the running test holds the turn.
  @TaskLocal private static var holdsTurn = false

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
