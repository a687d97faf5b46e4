import DequeModule
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
/// Jobs run one at a time, drained by one thread from a serial dispatch queue of their own:
/// never on the cooperative pool or Dispatch's width-limited global queue, so a thread blocked
/// waiting for effects (a test store ending) or busy work elsewhere in a parallel test run
/// cannot starve them. A job enqueued while the drain runs (an effect that yields, or resumes
/// another) runs on the same thread without a wake-up. Effects still interleave at every
/// suspension point; only their synchronous stretches take turns.
@usableFromInline
package final class SettlingExecutor: TaskExecutor, Sendable {
  private struct Jobs {
    var queue = Deque<UnownedJob>()
    var isDraining = false
  }

  /// Jobs enqueued and not yet finished running.
  private let pending = Atomic<Int>(0)
  private let jobs = LockedValue(Jobs())
  private let queue = DispatchQueue(label: "dev.patchbay.settling-executor")

  /// The executor of the effect running now, if it runs on one.
  @TaskLocal package static var current: SettlingExecutor?

  @usableFromInline
  package init() {}

  /// Runs an effect's operation with ``current`` set to this executor.
  @usableFromInline
  package func run(_ operation: () async -> Void) async {
    await Self.$current.withValue(self) { await operation() }
  }

  @usableFromInline
  package func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    self.pending.add(1, ordering: .acquiringAndReleasing)
    let startsDrain = self.jobs.withValue { jobs in
      jobs.queue.append(job)
      if jobs.isDraining { return false }
      jobs.isDraining = true
      return true
    }
    if startsDrain { self.queue.async { self.drain() } }
  }

  /// Runs jobs until none is left.
  private func drain() {
    while true {
      let next: UnownedJob? = self.jobs.withValue { jobs in
        if let job = jobs.queue.popFirst() { return job }
        jobs.isDraining = false
        return nil
      }
      guard let job = next else { return }
      job.runSynchronously(on: self.asUnownedTaskExecutor())
      self.pending.subtract(1, ordering: .acquiringAndReleasing)
    }
  }

  /// Whether no job is queued or running.
  @usableFromInline
  package var isIdle: Bool { self.pending.load(ordering: .acquiring) == 0 }

  /// Waits until no job is queued or running, or `timeout` passes; returns whether it settled.
  ///
  /// A job that resumes another (an effect sending to a continuation) keeps the executor
  /// busy until both have run, so one quiet observation means every ready effect has reached
  /// a suspension point.
  @discardableResult
  @usableFromInline
  package func settle(timeout: Duration = .seconds(1)) async -> Bool {
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
