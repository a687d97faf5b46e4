#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A value shared between threads behind a lock: the one kind of lock in Patchbay, core and
/// host alike (public for the host, which is in another package than the core).
///
/// ```swift
/// let seen = LockedValue<Set<String>>([])
/// let isNew = seen.withValue { $0.insert(name).inserted }   // from any thread
/// ```
///
/// It is a `pthread_mutex_t`, which ThreadSanitizer sees (it intercepts pthread's locks): a
/// value it guards is ordered between threads in a `make tsan` run, not reported as a race.
/// Synchronization's `Mutex` locks with bare futex calls that TSan cannot see, so it would
/// report one inside every `withLock`. Uncontended, both are one atomic instruction each way.
///
/// Unlike `Mutex`, it holds values the compiler cannot prove sendable (generic state and
/// actions); the lock is what makes sharing them safe. Hold it briefly, and never across a call
/// into a plugin or a wait: work that must wait belongs to an executor (``AppExecutor``).
public final class LockedValue<Value>: @unchecked Sendable {
  @usableFromInline let mutex: UnsafeMutablePointer<pthread_mutex_t>
  @usableFromInline var storage: Value

  public init(_ value: Value) {
    self.storage = value
    self.mutex = .allocate(capacity: 1)
    self.mutex.initialize(to: pthread_mutex_t())
    pthread_mutex_init(self.mutex, nil)
  }

  deinit {
    pthread_mutex_destroy(self.mutex)
    self.mutex.deallocate()
  }

  public var value: Value {
    get { self.withValue { $0 } }
    set { self.withValue { $0 = newValue } }
  }

  /// Runs `body` with exclusive access to the value.
  @inlinable
  public func withValue<R, E: Error>(_ body: (inout Value) throws(E) -> R) throws(E) -> R {
    pthread_mutex_lock(self.mutex)
    defer { pthread_mutex_unlock(self.mutex) }
    return try body(&self.storage)
  }
}

/// A value the compiler cannot prove sendable that the code around it only reads.
package struct UncheckedBox<Value>: @unchecked Sendable {
  package let value: Value
  package init(_ value: Value) { self.value = value }
}
