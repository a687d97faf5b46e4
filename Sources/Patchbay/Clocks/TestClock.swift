import IssueReporting
import PatchbayCore

/// A clock whose time moves only when a test advances it, and which lets effects catch up
/// before it does.
///
/// ```swift
/// let clock = TestClock()
/// let store = TestStore(initialState: Timer.State()) { Timer() } withDependencies: {
///   $0.continuousClock = clock
/// }
/// await store.send(.startTapped) { $0.isRunning = true }
/// await clock.advance(by: .seconds(3))
/// await store.receive(\.tick) { $0.seconds = 1 }
/// await store.receive(\.tick) { $0.seconds = 2 }
/// await store.receive(\.tick) { $0.seconds = 3 }
/// ```
///
/// It is swift-clocks' `TestClock` (same API, and it shadows it for code that imports
/// Patchbay), with one difference that matters under load: before it wakes the next sleeper,
/// and after, it waits until the effects of every test store that uses it have settled — run
/// until they are suspended again or done. A timer effect woken at 1 s has registered its 2 s
/// sleep before time moves past 2 s, so `advance(by: .seconds(3))` delivers exactly three ticks
/// however busy the machine is. swift-clocks' clock yields a fixed number of times instead,
/// which loses ticks when the effect's thread is not scheduled in time.
///
/// > Important: Effects are tracked when they run in a ``TestStore`` (or any store given a
/// > ``SettlingExecutor``). Work that hops to another actor is waited for only by yielding.
public final class TestClock<Duration: DurationProtocol & Hashable>: Clock, Sendable {
  /// A point in the test clock's time: how far it is from the clock's start.
  public struct Instant: InstantProtocol {
    public let offset: Duration

    public init(offset: Duration = .zero) {
      self.offset = offset
    }

    public func advanced(by duration: Duration) -> Self {
      Self(offset: self.offset + duration)
    }

    public func duration(to other: Self) -> Duration {
      other.offset - self.offset
    }

    public static func < (lhs: Self, rhs: Self) -> Bool {
      lhs.offset < rhs.offset
    }
  }

  private struct Sleeper {
    let id: Int
    let deadline: Instant
    let continuation: UnsafeContinuation<Void, any Error>
  }

  private struct Timeline {
    var now: Instant
    var minimumResolution: Duration = .zero
    var sleepers: [Sleeper] = []
    var cancelledBeforeSleeping: Set<Int> = []
    var nextID = 0
    var executors: [ObjectIdentifier: WeakExecutor] = [:]
  }

  private let timeline: LockedValue<Timeline>

  public init(now: Instant = .init()) {
    self.timeline = LockedValue(Timeline(now: now))
  }

  /// The clock's current time.
  public var now: Instant { self.timeline.withValue { $0.now } }

  /// The smallest step the clock distinguishes. Default zero.
  public var minimumResolution: Duration {
    get { self.timeline.withValue { $0.minimumResolution } }
    set { self.timeline.withValue { $0.minimumResolution = newValue } }
  }

  /// Suspends until the test advances the clock to `deadline`. A deadline already passed
  /// returns at once; one equal to `now` waits for the next `advance`, even by zero.
  public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
    try Task.checkCancellation()
    if let executor = SettlingExecutor.current { self.waitsFor(executor) }
    let id = self.timeline.withValue { timeline in
      defer { timeline.nextID += 1 }
      return timeline.nextID
    }
    try await withTaskCancellationHandler {
      try await withUnsafeThrowingContinuation {
        (continuation: UnsafeContinuation<Void, any Error>) in
        let outcome: Result<Void, any Error>? = self.timeline.withValue { timeline in
          if timeline.cancelledBeforeSleeping.remove(id) != nil {
            return .failure(CancellationError())
          }
          if deadline < timeline.now { return .success(()) }
          timeline.sleepers.append(Sleeper(id: id, deadline: deadline, continuation: continuation))
          return nil
        }
        if let outcome { continuation.resume(with: outcome) }
      }
    } onCancel: {
      let sleeper: Sleeper? = self.timeline.withValue { timeline in
        guard let index = timeline.sleepers.firstIndex(where: { $0.id == id }) else {
          timeline.cancelledBeforeSleeping.insert(id)
          return nil
        }
        return timeline.sleepers.remove(at: index)
      }
      sleeper?.continuation.resume(throwing: CancellationError())
    }
    // A sleep that ended without suspending leaves its id behind; drop it.
    self.timeline.withValue { _ = $0.cancelledBeforeSleeping.remove(id) }
  }

  /// Makes ``advance(by:)`` wait for the effects running on `executor` before and after each
  /// step. Test stores call it for the clocks in their dependencies; sleeping effects of a
  /// test store register themselves.
  package func waitsFor(_ executor: SettlingExecutor) {
    self.timeline.withValue { timeline in
      timeline.executors[ObjectIdentifier(executor)] = WeakExecutor(executor)
    }
  }

  /// Moves time forward by `duration`, waking each sleeper whose deadline it passes, in
  /// deadline order, and letting effects settle between wake-ups.
  public func advance(by duration: Duration = .zero) async {
    await self.advance(to: self.now.advanced(by: duration))
  }

  /// Moves time forward to `deadline`, waking each sleeper whose deadline it passes, in
  /// deadline order, and letting effects settle between wake-ups.
  public func advance(to deadline: Instant) async {
    await self.settle()
    while true {
      let woken: [Sleeper] = self.timeline.withValue { timeline in
        guard let earliest = timeline.sleepers.map(\.deadline).min(), earliest <= deadline else {
          if timeline.now < deadline { timeline.now = deadline }
          return []
        }
        if timeline.now < earliest { timeline.now = earliest }
        let woken = timeline.sleepers.filter { $0.deadline == earliest }
        timeline.sleepers.removeAll { $0.deadline == earliest }
        return woken
      }
      if woken.isEmpty { break }
      for sleeper in woken { sleeper.continuation.resume() }
      await self.settle()
    }
  }

  /// Advances until no sleeper is left; fails the test if sleepers remain after `timeout`
  /// (a timer that never stops, for example).
  public func run(
    timeout: Swift.Duration = .milliseconds(500),
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    let limit = ContinuousClock.now.advanced(by: timeout)
    await self.settle()
    while let next = self.timeline.withValue({ $0.sleepers.map(\.deadline).min() }) {
      guard ContinuousClock.now < limit else {
        reportIssue(
          """
          Expected all sleeps to finish, but some are still suspended after \(timeout).

          Fix: advance the clock by hand when a sleep repeats forever (a timer), cancel the \
          effect that sleeps, or pass a longer 'timeout:'.
          """,
          fileID: fileID, filePath: filePath, line: line, column: column
        )
        return
      }
      await self.advance(to: next)
    }
  }

  /// Throws ``SuspensionError`` when some sleep is waiting for the clock.
  public func checkSuspension() async throws {
    await self.settle()
    if self.timeline.withValue({ !$0.sleepers.isEmpty }) { throw SuspensionError() }
  }

  /// Lets ready work run: yields (for work the clock cannot see), then waits for the test
  /// stores' effects to reach a suspension point.
  private func settle() async {
    for _ in 0..<8 { await Task.yield() }
    let executors = self.timeline.withValue { timeline in
      timeline.executors = timeline.executors.filter { $0.value.executor != nil }
      return timeline.executors.values.compactMap(\.executor)
    }
    for executor in executors { await executor.settle() }
  }
}

extension TestClock where Duration == Swift.Duration {
  public convenience init() {
    self.init(now: .init())
  }
}

/// Thrown by ``TestClock/checkSuspension()`` when a sleep is still waiting.
public struct SuspensionError: Error {}

private struct WeakExecutor: Sendable {
  weak var executor: SettlingExecutor?
  init(_ executor: SettlingExecutor) { self.executor = executor }
}
