import DequeModule
import Foundation
import Synchronization

/// The host's serial app queue: the `[main-thread]` of every plugin instance (core.h). One
/// thread runs its jobs one at a time, in the order they were enqueued. docs/ARCHITECTURE.md
/// shows what runs on it and how an action travels through it.
///
/// ```swift
/// let executor = AppExecutor(name: "patchbay-app")
/// executor.enqueue { handle.send(bytes) }          // from an effect thread: runs later, in order
/// let state = try executor.sync { try handle.stateValue() }  // from a command: waits for it
/// ```
///
/// `sync` from a job (on the executor's own thread) runs inline, so code that is already on
/// the app queue may call back into the app.
package final class AppExecutor: @unchecked Sendable {
  private struct Jobs: ~Copyable {
    var queue = Deque<@Sendable () -> Void>()
    var isRunning = false
    var isStopped = false
  }

  private let jobs = Mutex(Jobs())
  private let wakeUp = DispatchSemaphore(value: 0)
  private let threadID = Atomic<UInt>(0)

  package init(name: String) {
    let thread = Thread { [self] in self.run() }
    thread.name = name
    thread.start()
  }

  /// Whether the calling thread is the executor's.
  package var isCurrent: Bool {
    self.threadID.load(ordering: .acquiring) == UInt(bitPattern: Int(bitPattern: pthread_self()))
  }

  /// Whether no job waits and none runs.
  package var isIdle: Bool {
    self.jobs.withLock { $0.queue.isEmpty && !$0.isRunning }
  }

  /// Runs `job` on the executor after every job enqueued before it.
  package func enqueue(_ job: @escaping @Sendable () -> Void) {
    let accepted = self.jobs.withLock { jobs -> Bool in
      guard !jobs.isStopped else { return false }
      jobs.queue.append(job)
      return true
    }
    if accepted { self.wakeUp.signal() }
  }

  /// Runs `body` on the executor after the jobs already enqueued, and returns its result; on
  /// the executor itself, runs it at once.
  package func sync<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
    if self.isCurrent { return try body() }
    let done = DispatchSemaphore(value: 0)
    nonisolated(unsafe) var result: Result<T, E>?
    withoutActuallyEscaping(body) { body in
      // The job lets go of `body` before it signals: `body` must not outlive this call.
      let call = Call()
      call.run = { result = Result { () throws(E) -> T in try body() } }
      self.enqueue {
        call.run?()
        call.run = nil
        done.signal()
      }
      done.wait()
    }
    return try result!.get()
  }

  /// Stops the thread after the jobs already enqueued; later jobs are dropped.
  package func stop() {
    self.jobs.withLock { $0.isStopped = true }
    self.wakeUp.signal()
  }

  private func run() {
    self.threadID.store(UInt(bitPattern: Int(bitPattern: pthread_self())), ordering: .releasing)
    while true {
      self.wakeUp.wait()
      while let job = self.next() {
        job()
        self.jobs.withLock { $0.isRunning = false }
      }
      if self.jobs.withLock({ $0.isStopped && $0.queue.isEmpty }) { return }
    }
  }

  /// A `sync` caller's work, held by reference so the job can drop it.
  private final class Call: @unchecked Sendable {
    var run: (() -> Void)?
  }

  private func next() -> (@Sendable () -> Void)? {
    self.jobs.withLock { jobs in
      guard let job = jobs.queue.popFirst() else { return nil }
      jobs.isRunning = true
      return job
    }
  }
}
