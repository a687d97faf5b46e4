import Dispatch
import Foundation
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
///
/// State an executor owns sits behind an accessor that calls ``assertCurrent(_:file:line:)``
/// (as swift-nio's `assertInEventLoop`): `AppRuntime.owned`, `FeatureHandle.owned`,
/// `HostContext.owned`.
///
/// `@unchecked Sendable`: the dispatch queue is thread-safe, the counters are atomic, and the
/// rest is immutable.
package final class AppExecutor: @unchecked Sendable {
  package let name: String
  private let queue: DispatchQueue
  /// The executor whose job runs on this thread now: a pthread key, because the check runs
  /// several times per action and `DispatchQueue.getSpecific` costs a hash lookup.
  private static let running: pthread_key_t = {
    var key = pthread_key_t()
    pthread_key_create(&key, nil)
    return key
  }()
  /// Jobs queued or running.
  private let pending = Atomic<Int>(0)
  private let isStopped = Atomic<Bool>(false)

  package init(name: String) {
    self.name = name
    self.queue = DispatchQueue(label: name)
  }

  /// Stops a debug build when the calling code is not one of this executor's jobs: the check
  /// behind every access to state the executor owns. A release build skips it (it runs on
  /// every access); there the public entry points, which hop onto the executor, keep the rule.
  @inline(__always)
  package func assertCurrent(
    _ what: @autoclosure () -> String, file: StaticString = #fileID, line: UInt = #line
  ) {
    assert(
      self.isCurrent,
      "\(what()) belongs to the \(self.name) executor, but this code is not one of its jobs",
      file: file, line: line)
  }

  /// Whether the calling code runs as one of this executor's jobs.
  package var isCurrent: Bool {
    pthread_getspecific(Self.running) == Unmanaged.passUnretained(self).toOpaque()
  }

  /// Runs `job` marked as this executor's (restoring the mark of an outer executor's job).
  private func asJob<T>(_ job: () throws -> T) rethrows -> T {
    let outer = pthread_getspecific(Self.running)
    pthread_setspecific(Self.running, Unmanaged.passUnretained(self).toOpaque())
    defer { pthread_setspecific(Self.running, outer) }
    return try job()
  }

  /// Whether no job waits and none runs.
  package var isIdle: Bool { self.pending.load(ordering: .acquiring) == 0 }

  /// Runs `job` on the executor after every job queued before it.
  package func enqueue(_ job: @escaping @Sendable () -> Void) {
    guard !self.isStopped.load(ordering: .acquiring) else { return }
    self.pending.add(1, ordering: .acquiringAndReleasing)
    self.queue.async {
      self.asJob(job)
      self.pending.subtract(1, ordering: .acquiringAndReleasing)
    }
  }

  /// Runs `body` after the jobs already queued, and returns its result; from a job of this
  /// executor, runs it at once.
  package func sync<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
    if self.isCurrent { return try body() }
    self.pending.add(1, ordering: .acquiringAndReleasing)
    defer { self.pending.subtract(1, ordering: .acquiringAndReleasing) }
    let result = self.queue.sync {
      self.asJob { Result { () throws(E) -> T in try body() } }
    }
    return try result.get()
  }

  /// Drops jobs queued from now on (the app is going away); the ones already queued run.
  package func stop() {
    self.isStopped.store(true, ordering: .releasing)
  }
}
