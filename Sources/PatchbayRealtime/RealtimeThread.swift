import Foundation

/// A thread for realtime work: SCHED_FIFO at `priority` where the system allows it, otherwise
/// a normal thread, and ``schedulingNote`` says why.
///
/// ```swift
/// let thread = RealtimeThread(name: "patchbay-audio", priority: 70) { audioLoop() }
/// print(thread.schedulingNote)   // "SCHED_FIFO priority 70"
/// thread.join()
/// ```
///
/// The body runs outside any actor (docs/ARCHITECTURE.md, "The threads": realtime code is
/// `nonisolated`, never in a `main.swift` closure).
public final class RealtimeThread: @unchecked Sendable {
  /// How the thread is scheduled: `SCHED_FIFO priority 70`, or the reason it is not.
  public let schedulingNote: String
  private var thread = pthread_t()

  private final class Body {
    let run: @Sendable () -> Void
    let name: String
    init(_ name: String, _ run: @escaping @Sendable () -> Void) {
      (self.name, self.run) = (name, run)
    }
  }

  /// `realtimeReason`, when not nil, says why this work needs no realtime priority (a file,
  /// not a device): the thread then runs at normal priority and the note says so.
  public init(
    name: String, priority: Int32 = 70, realtimeNotNeeded realtimeReason: String? = nil,
    _ body: @escaping @Sendable () -> Void
  ) {
    let context = Unmanaged.passRetained(Body(name, body)).toOpaque()
    let start: @convention(c) (UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? = { context in
      let body = Unmanaged<Body>.fromOpaque(context!).takeRetainedValue()
      setThreadName(String(body.name.prefix(15)))
      body.run()
      return nil
    }
    if let realtimeReason {
      self.schedulingNote = "normal priority (\(realtimeReason))"
      let normal = pthread_create(&self.thread, nil, start, context)
      precondition(normal == 0, "cannot create a thread: \(String(cString: strerror(normal)))")
      return
    }
    var attributes = pthread_attr_t()
    pthread_attr_init(&attributes)
    defer { pthread_attr_destroy(&attributes) }
    pthread_attr_setinheritsched(&attributes, Int32(PTHREAD_EXPLICIT_SCHED))
    pthread_attr_setschedpolicy(&attributes, SCHED_FIFO)
    var parameters = sched_param()
    parameters.sched_priority = priority
    pthread_attr_setschedparam(&attributes, &parameters)
    let realtime = pthread_create(&self.thread, &attributes, start, context)
    if realtime == 0 {
      self.schedulingNote = "SCHED_FIFO priority \(priority)"
      return
    }
    // Not permitted (no CAP_SYS_NICE, or RLIMIT_RTPRIO 0): run at normal priority.
    let reason = String(cString: strerror(realtime))
    self.schedulingNote =
      "normal priority: SCHED_FIFO refused (\(reason)); raise RLIMIT_RTPRIO (ulimit -r) or run with CAP_SYS_NICE"
    let normal = pthread_create(&self.thread, nil, start, context)
    precondition(normal == 0, "cannot create a thread: \(String(cString: strerror(normal)))")
  }

  /// Waits for the body to return.
  public func join() {
    pthread_join(self.thread, nil)
  }
}

/// Names the calling thread (for `top -H`, debuggers): glibc's `pthread_setname_np`, which
/// Glibc's module leaves out.
private func setThreadName(_ name: String) {
  typealias SetName = @convention(c) (pthread_t, UnsafePointer<CChar>) -> Int32
  guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "pthread_setname_np") else {
    return
  }
  _ = unsafeBitCast(symbol, to: SetName.self)(pthread_self(), name)
}
