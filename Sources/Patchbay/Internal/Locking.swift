import Synchronization

/// A value shared between threads behind a lock (public for the host, which is in another
/// package than the core).
///
/// Unlike `Mutex`, it holds values the compiler cannot prove sendable (generic state and
/// actions); the lock is what makes sharing them safe.
public final class LockedValue<Value>: @unchecked Sendable {
  @usableFromInline let mutex = Mutex<Void>(())
  @usableFromInline var storage: Value

  public init(_ value: Value) {
    self.storage = value
  }

  public var value: Value {
    get { self.withValue { $0 } }
    set { self.withValue { $0 = newValue } }
  }

  /// Runs `body` with exclusive access to the value.
  @inlinable
  public func withValue<R>(_ body: (inout Value) throws -> R) rethrows -> R {
    try self.mutex.withLock { _ in
      nonisolated(unsafe) let result = try body(&self.storage)
      return result
    }
  }
}

/// A value the compiler cannot prove sendable that the code around it only reads.
struct UncheckedBox<Value>: @unchecked Sendable {
  let value: Value
  init(_ value: Value) { self.value = value }
}
