import Dispatch
import Synchronization

/// The host's serial app queue: the `[main-thread]` of every plugin instance (core.h). Jobs
/// run one at a time, in the order they were queued. docs/ARCHITECTURE.md shows what runs on
/// it and how an action travels through it.
///
/// ```swift
/// let executor = AppExecutor(name: "patchbay-app")
/// executor.enqueue { handle.send(bytes) }          // from an effect thread: runs later, in order
/// let state = try executor.sync { try handle.stateValue() }  // from a command: waits for it
/// ```
///
/// A serial dispatch queue underneath: `sync` runs its job on the calling thread once the jobs
/// before it are done (no thread hop when the queue is idle), `enqueue` on a worker thread.
/// `sync` from a job runs inline, so code already on the queue may call back into the app.
package final class AppExecutor: @unchecked Sendable {
  private let queue: DispatchQueue
  private let key = DispatchSpecificKey<ObjectIdentifier>()
  /// Jobs queued or running.
  private let pending = Atomic<Int>(0)
  private let isStopped = Atomic<Bool>(false)

  package init(name: String) {
    self.queue = DispatchQueue(label: name)
    self.queue.setSpecific(key: self.key, value: ObjectIdentifier(self))
  }

  /// Whether the calling code runs as one of this executor's jobs.
  package var isCurrent: Bool {
    DispatchQueue.getSpecific(key: self.key) == ObjectIdentifier(self)
  }

  /// Whether no job waits and none runs.
  package var isIdle: Bool { self.pending.load(ordering: .acquiring) == 0 }

  /// Runs `job` on the executor after every job queued before it.
  package func enqueue(_ job: @escaping @Sendable () -> Void) {
    guard !self.isStopped.load(ordering: .acquiring) else { return }
    self.pending.add(1, ordering: .acquiringAndReleasing)
    self.queue.async {
      job()
      self.pending.subtract(1, ordering: .acquiringAndReleasing)
    }
  }

  /// Runs `body` after the jobs already queued, and returns its result; from a job of this
  /// executor, runs it at once.
  package func sync<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
    if self.isCurrent { return try body() }
    self.pending.add(1, ordering: .acquiringAndReleasing)
    defer { self.pending.subtract(1, ordering: .acquiringAndReleasing) }
    let result = self.queue.sync { Result { () throws(E) -> T in try body() } }
    return try result.get()
  }

  /// Drops jobs queued from now on (the app is going away); the ones already queued run.
  package func stop() {
    self.isStopped.store(true, ordering: .releasing)
  }
}
