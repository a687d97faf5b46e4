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
///
/// Public, though only the package uses it: Swift 6.3 does not inline a `package` accessor
/// that returns a pointer into another module, even one marked `@inline(__always)`. Each access
/// was then a call into the unspecialized generic getter, with a metadata lookup: about 340
/// call sites, several on every action.
public struct ExecutorOwned<Value>: ~Copyable {
  let executor: AppExecutor
  @usableFromInline let pointer: UnsafeMutablePointer<Value>
  let what: StaticString

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
  public var address: UnsafePointer<Value> {
    #if DEBUG
      self.assertCurrent()
    #endif
    return UnsafePointer(self.pointer)
  }

  /// The value's address, for writing. [executor]
  @inlinable @inline(__always)
  public var mutableAddress: UnsafeMutablePointer<Value> {
    #if DEBUG
      self.assertCurrent()
    #endif
    return self.pointer
  }

  /// Stops a debug build outside the executor's jobs (``AppExecutor/assertCurrent(_:file:line:)``).
  @usableFromInline
  func assertCurrent() {
    self.executor.assertCurrent("\(self.what)")
  }
}
