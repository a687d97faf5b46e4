import Glibc

/// Wakes a thread that waits for work from a realtime thread that makes it: the MIDI reader
/// rings after pushing events, and the MIDI pump, instead of polling, sleeps until then.
///
/// ```swift
/// let doorbell = Doorbell()
/// // the reader: ring.push(event); doorbell.ring()
/// // the pump:   while ring.pop() == nil { doorbell.wait(nanoseconds: 2_000_000) }
/// ```
///
/// A POSIX semaphore: `ring` never blocks, locks or allocates (a counter, and a futex wake
/// only when a thread waits); rings while nobody waits are counted, and each later `wait`
/// returns at once for one of them.
public final class Doorbell: @unchecked Sendable {
  private let semaphore: UnsafeMutablePointer<sem_t>

  public init() {
    self.semaphore = .allocate(capacity: 1)
    sem_init(self.semaphore, 0, 0)
  }

  deinit {
    sem_destroy(self.semaphore)
    self.semaphore.deallocate()
  }

  /// Wakes the waiting thread, or the next to wait. [realtime-safe]
  @inline(__always)
  public func ring() {
    sem_post(self.semaphore)
  }

  /// Sleeps until rung or `nanoseconds` pass; true when rung.
  @discardableResult
  public func wait(nanoseconds: Int) -> Bool {
    var deadline = timespec()
    clock_gettime(CLOCK_REALTIME, &deadline)
    let total = Int(deadline.tv_nsec) + nanoseconds
    deadline.tv_sec += total / 1_000_000_000
    deadline.tv_nsec = total % 1_000_000_000
    while true {
      if sem_timedwait(self.semaphore, &deadline) == 0 { return true }
      if errno != EINTR { return false }
    }
  }
}
