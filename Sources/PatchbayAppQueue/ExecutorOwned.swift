/// State that only one executor's jobs touch, kept at a stable address and reached in place:
/// every access asserts it runs on the executor (``AppExecutor/assertCurrent(_:file:line:)``,
/// debug builds), and none allocates or takes a lock.
///
/// ```swift
/// final class Handle {
///   struct Owned { var count = 0 }
///   private let storage: ExecutorOwned<Owned>
///   var owned: Owned {
///     unsafeAddress { self.storage.address }
///     unsafeMutableAddress { self.storage.mutableAddress }
///   }
/// }
/// handle.owned.count += 1   // in a job of the executor; elsewhere a debug build stops here
/// ```
///
/// Addressors, not `_read`/`_modify`: a coroutine accessor that is not inlined allocates its
/// frame, which the per-action path cannot afford.
package struct ExecutorOwned<Value>: ~Copyable {
  @usableFromInline let executor: AppExecutor
  @usableFromInline let pointer: UnsafeMutablePointer<Value>
  @usableFromInline let what: StaticString

  /// `value`, owned by `executor`; `what` names it in the assertion's message.
  package init(_ value: Value, by executor: AppExecutor, what: StaticString) {
    self.executor = executor
    self.what = what
    self.pointer = .allocate(capacity: 1)
    self.pointer.initialize(to: value)
  }

  deinit {
    self.pointer.deinitialize(count: 1)
    self.pointer.deallocate()
  }

  /// The value's address, for reading. [executor]
  @inlinable @inline(__always)
  package var address: UnsafePointer<Value> {
    self.executor.assertCurrent("\(self.what)")
    return UnsafePointer(self.pointer)
  }

  /// The value's address, for writing. [executor]
  @inlinable @inline(__always)
  package var mutableAddress: UnsafeMutablePointer<Value> {
    self.executor.assertCurrent("\(self.what)")
    return self.pointer
  }
}
