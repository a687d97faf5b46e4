/// What counts the calls a processor must not make — allocations, locks, system calls — on
/// the thread that calls `process`. The counters replace malloc and libc's locking and I/O
/// functions for the whole process, so only `patchbay-probe`, the child `patchbay validate`
/// runs the realtime tests in, links them; it installs this before running its test.
///
/// ```swift
/// RealtimeProbe.installed = RealtimeProbe(watch: …, counts: …, reset: …, selfTest: …)
/// probe.watch(true); process(…); probe.watch(false)   // on the audio thread
/// probe.counts().allocations                          // 0 for a realtime-safe processor
/// ```
package struct RealtimeProbe: Sendable {
  /// What the watched thread did while it was watched.
  package struct Counts: Sendable, Equatable {
    /// One counted function: `pthread_mutex_lock`, a lock, 3 calls.
    package struct Call: Sendable, Equatable {
      package var name: String
      package var isLock: Bool
      package var count: Int

      package init(name: String, isLock: Bool, count: Int) {
        self.name = name
        self.isLock = isLock
        self.count = count
      }
    }

    package var allocations: Int
    /// The functions called at least once.
    package var calls: [Call]

    package init(allocations: Int, calls: [Call]) {
      self.allocations = allocations
      self.calls = calls
    }

    package var isEmpty: Bool { self.allocations == 0 && self.calls.isEmpty }
  }

  /// Starts (true) or stops counting the calling thread's calls. Allocates nothing.
  package let watch: @Sendable (Bool) -> Void
  package let counts: @Sendable () -> Counts
  package let reset: @Sendable () -> Void
  /// Nil when each counter saw a call made on purpose; otherwise what is wrong with the probe.
  package let selfTest: @Sendable () -> String?

  package init(
    watch: @escaping @Sendable (Bool) -> Void, counts: @escaping @Sendable () -> Counts,
    reset: @escaping @Sendable () -> Void, selfTest: @escaping @Sendable () -> String?
  ) {
    self.watch = watch
    self.counts = counts
    self.reset = reset
    self.selfTest = selfTest
  }

  /// The probe of this process: set once by `patchbay-probe` at start, before any test runs;
  /// nil in `patchbay` itself.
  nonisolated(unsafe) package static var installed: RealtimeProbe?
}
