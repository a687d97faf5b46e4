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
public struct LockedValue<Value>: @unchecked Sendable {
  /// The value and its lock in one allocation: the value is the buffer's header, the lock its
  /// one element (a lock must not move, and a buffer's elements never do).
  @usableFromInline final class Storage: ManagedBuffer<Value, pthread_mutex_t> {
    deinit {
      _ = self.withUnsafeMutablePointerToElements { pthread_mutex_destroy($0) }
    }
  }

  @usableFromInline let storage: Storage

  public init(_ value: Value) {
    let buffer = Storage.create(minimumCapacity: 1) { _ in value }
    buffer.withUnsafeMutablePointerToElements { mutex in
      mutex.initialize(to: pthread_mutex_t())
      _ = pthread_mutex_init(mutex, nil)
    }
    self.storage = unsafeDowncast(buffer, to: Storage.self)
  }

  public var value: Value {
    get { self.withValue { $0 } }
    nonmutating set { self.withValue { $0 = newValue } }
  }

  /// Runs `body` with exclusive access to the value.
  @inlinable
  public func withValue<R, E: Error>(_ body: (inout Value) throws(E) -> R) throws(E) -> R {
    try self.storage.withUnsafeMutablePointers { value, mutex throws(E) -> R in
      pthread_mutex_lock(mutex)
      defer { pthread_mutex_unlock(mutex) }
      return try body(&value.pointee)
    }
  }
}

/// A value the compiler cannot prove sendable that the code around it only reads.
package struct UncheckedBox<Value>: @unchecked Sendable {
  package let value: Value
  package init(_ value: Value) { self.value = value }
}
