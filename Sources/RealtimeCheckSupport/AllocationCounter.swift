import Foundation
import MallocInterposerSwift
import Synchronization

/// Counts allocations made on one watched thread, through malloc-interposer's per-allocation
/// hook (which runs on the allocating thread).
///
/// ```swift
/// AllocationCounter.install()
/// AllocationCounter.watch(currentThread: true)   // on the thread to check
/// …
/// AllocationCounter.watch(currentThread: false)
/// AllocationCounter.count   // allocations that thread made in between
/// ```
public enum AllocationCounter {
  private static let watched = Atomic<UInt>(0)
  private static let counted = Atomic<Int>(0)

  /// Turns counting on and installs the hook.
  public static func install() {
    MallocInterposerSwift.initialize()
    MallocInterposerSwift.setAllocationHook { _ in
      // pthread_self and two atomics: nothing here allocates.
      if UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(bitPattern: UInt(pthread_self()))))
        == AllocationCounter.watched.load(ordering: .relaxed)
      {
        AllocationCounter.counted.add(1, ordering: .relaxed)
      }
    }
    MallocInterposerSwift.hook()
  }

  /// Starts (or stops) counting the calling thread's allocations.
  public static func watch(currentThread: Bool) {
    Self.watched.store(currentThread ? UInt(pthread_self()) : 0, ordering: .relaxed)
  }

  /// Allocations counted since the last reset.
  public static var count: Int { Self.counted.load(ordering: .relaxed) }

  public static func reset() { Self.counted.store(0, ordering: .relaxed) }
}
