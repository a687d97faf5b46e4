import CPatchbayThreadMark
import Foundation
import Synchronization

#if canImport(CDispatch)
  import CDispatch
#else
  import Dispatch
#endif

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
/// before it are done (when none is, at once: no hop, no allocation), `enqueue` on a worker
/// thread.
/// `sync` from a job runs inline, so code already on the queue may call back into the app.
///
/// State an executor owns sits behind an accessor that calls ``assertCurrent(_:file:line:)``
/// (as swift-nio's `assertInEventLoop`): `AppRuntime.owned`, `FeatureHandle.owned`,
/// `HostContext.owned`.
///
/// `@unchecked Sendable`: the dispatch queue is thread-safe, the counters are atomic, and the
/// rest is immutable.
///
/// Public, though its members are the package's only: Swift 6.3 inlines no `@inlinable`
/// member of a `package` type into another module. `sync` ran unspecialized then, from 120
/// call sites, with its generic metadata looked up on every action. (``ExecutorOwned`` is
/// public for the same reason.)
public final class AppExecutor: @unchecked Sendable {
  @usableFromInline package let name: String
  /// A serial dispatch queue, driven through the C calls (`dispatch_sync_f`,
  /// `dispatch_async_f`): they take a function and a context, so a job allocates nothing
  /// (Swift's `DispatchQueue.sync` copies a block and boxes the result: two allocations).
  private let queue: dispatch_queue_t
  /// The queue as the calls that take any dispatch object want it.
  private var object: dispatch_object_t { dispatch_object_t(_dq: self.queue) }
  /// Jobs queued or running (the low 32 bits); whether one runs inline, on a caller's thread
  /// outside the queue (``inlineBit``); and how many callers held the queue still meanwhile
  /// (``suspensionUnit``s), for that job to let go when it ends. One word, so each of those
  /// decisions is one atomic step.
  @usableFromInline let state = Atomic<UInt64>(0)
  private static let pendingMask: UInt64 = 0xFFFF_FFFF
  private static let suspensionUnit: UInt64 = 1 << 32
  private static let suspensionMask: UInt64 = 0x7FFF_FFFF << 32
  @usableFromInline static let inlineBit: UInt64 = 1 << 63
  private let isStopped = Atomic<Bool>(false)

  package init(name: String) {
    self.name = name
    self.queue = dispatch_queue_create(name, nil)
  }

  deinit {
    Self.release(self.queue)
  }

  /// `dispatch_release`, which Swift marks unavailable (ARC manages Dispatch's own wrappers,
  /// not a queue made with the C call). Its argument is a transparent union of pointers, passed
  /// as a pointer.
  private static let release: @convention(c) (dispatch_queue_t) -> Void = {
    guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "dispatch_release") else {
      fatalError("libdispatch has no dispatch_release")
    }
    return unsafeBitCast(symbol, to: (@convention(c) (dispatch_queue_t) -> Void).self)
  }()

  /// Stops a debug build when the calling code is not one of this executor's jobs: the check
  /// behind every access to state the executor owns. A release build skips it (it runs on
  /// every access); there the public entry points, which hop onto the executor, keep the rule.
  @inlinable @inline(__always)
  package func assertCurrent(
    _ what: @autoclosure () -> String, file: StaticString = #fileID, line: UInt = #line
  ) {
    assert(
      self.isCurrent,
      "\(what()) belongs to the \(self.name) executor, but this code is not one of its jobs",
      file: file, line: line)
  }

  /// Whether the calling code runs as one of this executor's jobs: the thread's mark
  /// (`pb_thread_mark`, a C thread-local: one load) is this executor.
  @inlinable
  package var isCurrent: Bool { pb_thread_mark() == self.mark }

  /// This executor as the thread mark names it.
  @inlinable
  var mark: UnsafeRawPointer { UnsafeRawPointer(Unmanaged.passUnretained(self).toOpaque()) }

  /// Runs `job` marked as this executor's (restoring the mark of an outer executor's job).
  private func asJob<T, E: Error>(_ job: () throws(E) -> T) throws(E) -> T {
    let outer = pb_thread_mark()
    pb_set_thread_mark(self.mark)
    defer { pb_set_thread_mark(outer) }
    return try job()
  }

  /// Whether no job waits and none runs.
  package var isIdle: Bool { self.state.load(ordering: .acquiring) & Self.pendingMask == 0 }

  /// Counts a job about to be dispatched. If a job runs inline right now, the queue is held
  /// still first (`dispatch_suspend`), so the new one cannot run beside it; the inline job lets
  /// it go when it ends. With none inline (the usual case) this is one atomic add.
  private func admit() {
    let before = self.state.add(1, ordering: .acquiringAndReleasing).oldValue
    guard before & Self.inlineBit != 0 else { return }
    dispatch_suspend(self.object)
    let registered = self.state.add(Self.suspensionUnit, ordering: .acquiringAndReleasing)
    if registered.oldValue & Self.inlineBit == 0 {
      // The inline job ended in between, and did not count this suspension: let go here. No
      // other can start inline meanwhile: this job is counted.
      self.state.subtract(Self.suspensionUnit, ordering: .acquiringAndReleasing)
      dispatch_resume(self.object)
    }
  }

  /// Ends an inline job: uncounts it, and lets go of the queue as often as callers held it.
  @usableFromInline
  func endInline() {
    var current = self.state.load(ordering: .relaxed)
    while true {
      let next = (current & Self.pendingMask) - 1
      let (exchanged, original) = self.state.compareExchange(
        expected: current, desired: next, ordering: .acquiringAndReleasing)
      if exchanged { break }
      current = original
    }
    for _ in 0..<((current & Self.suspensionMask) >> 32) { dispatch_resume(self.object) }
  }

  /// Runs `job` on the executor after every job queued before it.
  package func enqueue(_ job: @escaping @Sendable () -> Void) {
    guard !self.isStopped.load(ordering: .acquiring) else { return }
    self.admit()
    let context = Unmanaged.passRetained(QueuedJob(executor: self, job: job)).toOpaque()
    dispatch_async_f(self.queue, context) { context in
      let queued = Unmanaged<QueuedJob>.fromOpaque(context!).takeRetainedValue()
      queued.executor.asJob(queued.job)
      queued.executor.state.subtract(1, ordering: .acquiringAndReleasing)
    }
  }

  /// Runs `body` after the jobs already queued, and returns its result; from a job of this
  /// executor, runs it at once.
  @inlinable
  package func sync<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
    let outer = pb_thread_mark()
    if outer == self.mark { return try body() }
    // The usual case, inline, here where `T` and `E` are known: the generic `syncOnQueue`
    // runs unspecialized, and looked up its locals' generic metadata on every call (a fifth
    // of a send through the C ABI).
    guard self.startInline() else { return try self.syncOnQueue(body) }
    defer { self.endInline(restoring: outer) }
    return try body()
  }

  /// Starts a job inline when none is queued or running (one compare-and-swap), marked as this
  /// executor's; false when the job must wait its turn. ``endInline(restoring:)`` gives back
  /// the mark the caller read before.
  @inlinable
  func startInline() -> Bool {
    guard
      self.state.compareExchange(
        expected: 0, desired: Self.inlineBit | 1, ordering: .acquiringAndReleasing
      ).exchanged
    else { return false }
    pb_set_thread_mark(self.mark)
    return true
  }

  /// Ends a job ``startInline()`` started: the thread's mark back to `outer`, the queue let go.
  @inlinable
  func endInline(restoring outer: UnsafeRawPointer?) {
    pb_set_thread_mark(outer)
    // The usual case, inline: no job was queued meanwhile, and none held the queue.
    let alone = Self.inlineBit | 1
    guard
      !self.state.compareExchange(expected: alone, desired: 0, ordering: .acquiringAndReleasing)
        .exchanged
    else { return }
    self.endInline()
  }

  /// ``sync(_:)`` from outside the executor: the job runs on the calling thread once the jobs
  /// before it are done. When none is queued or running, it runs at once, inline (one atomic
  /// compare-and-swap to start, one to end); a job queued meanwhile waits for it
  /// (``admit()``). Otherwise it waits its turn in the queue. It allocates nothing.
  @usableFromInline
  func syncOnQueue<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
    let outer = pb_thread_mark()
    if self.startInline() {
      defer { self.endInline(restoring: outer) }
      return try body()
    }
    self.admit()
    defer { self.state.subtract(1, ordering: .acquiringAndReleasing) }
    var result: Result<T, E>?
    withoutActuallyEscaping({ result = self.asJob { Result { () throws(E) -> T in try body() } } })
    {
      var job = $0
      withUnsafeMutablePointer(to: &job) { job in
        dispatch_sync_f(self.queue, job) { job in
          job!.assumingMemoryBound(to: (() -> Void).self).pointee()
        }
      }
    }
    return try result!.get()
  }

  /// Drops jobs queued from now on (the app is going away); the ones already queued run.
  package func stop() {
    self.isStopped.store(true, ordering: .releasing)
  }
}

/// A job waiting in the queue, with the executor it runs for.
private final class QueuedJob {
  let executor: AppExecutor
  let job: @Sendable () -> Void

  init(executor: AppExecutor, job: @escaping @Sendable () -> Void) {
    self.executor = executor
    self.job = job
  }
}
