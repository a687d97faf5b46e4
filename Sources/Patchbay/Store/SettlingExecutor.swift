import Dispatch
import Synchronization

/// A task executor that knows when the effects running on it have settled: no job queued and
/// none running. Test stores run their effects on one, so a ``TestClock`` can let every effect
/// that is ready to run reach its next suspension before it moves time on.
///
/// ```swift
/// let executor = SettlingExecutor()
/// let core = StoreCore(initialState: …, reducer: …, dependencies: …, effectExecutor: executor)
/// // …
/// await executor.settle(timeout: .seconds(1))  // every ready effect is suspended or done
/// ```
///
/// Jobs run on Dispatch's global queue, never on the cooperative pool, so a thread blocked
/// waiting for effects (a test store ending) cannot starve the effects it waits for.
public final class SettlingExecutor: TaskExecutor, Sendable {
  /// Jobs enqueued and not yet finished running.
  private let pending = Atomic<Int>(0)

  /// The executor of the effect running now, if it runs on one.
  @TaskLocal public static var current: SettlingExecutor?

  public init() {}

  public func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    self.pending.add(1, ordering: .acquiringAndReleasing)
    DispatchQueue.global().async {
      job.runSynchronously(on: self.asUnownedTaskExecutor())
      self.pending.subtract(1, ordering: .acquiringAndReleasing)
    }
  }

  /// Whether no job is queued or running.
  public var isIdle: Bool { self.pending.load(ordering: .acquiring) == 0 }

  /// Waits until no job is queued or running, or `timeout` passes; returns whether it settled.
  ///
  /// A job that resumes another (an effect sending to a continuation) keeps the executor
  /// busy until both have run, so one quiet observation means every ready effect has reached
  /// a suspension point.
  @discardableResult
  public func settle(timeout: Duration = .seconds(1)) async -> Bool {
    let deadline = ContinuousClock.now.advanced(by: timeout)
    var spins = 0
    while !self.isIdle {
      if ContinuousClock.now >= deadline { return false }
      spins += 1
      if spins < 64 {
        await Task.yield()
      } else {
        try? await Task.sleep(for: .microseconds(50))
      }
    }
    return true
  }
}
