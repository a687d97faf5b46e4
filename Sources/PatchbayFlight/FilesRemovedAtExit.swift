import Foundation
import Synchronization

/// The files a process removes when it exits (`exit`, a return from `main`), unless removed
/// before: each flight writer's, so that an app a process never let go of leaves no file, and
/// one that crashed (no exit handler runs) leaves its own. Lock-free: an entry is pushed on a
/// list that only grows, and taken out by clearing its path, whoever comes first.
///
/// ```swift
/// let entry = FilesRemovedAtExit.add("/tmp/patchbay-flight/app-42-1.flight")
/// FilesRemovedAtExit.remove(entry)   // removed now, not again at exit
/// ```
enum FilesRemovedAtExit {
  /// One file: its path (a `strdup`'s address) until it is removed, then 0; and the entry
  /// added before it (an address, 0 for none).
  struct Entry: ~Copyable {
    let path: Atomic<UInt>
    let next: UInt
  }

  /// The newest entry's address; each points at the one before. Never freed (a few bytes an
  /// app).
  private static let newest: Atomic<UInt> = {
    atexit {
      var address = FilesRemovedAtExit.newest.load(ordering: .acquiring)
      while let entry = UnsafeMutablePointer<Entry>(bitPattern: address) {
        FilesRemovedAtExit.remove(entry)
        address = entry.pointee.next
      }
    }
    return Atomic(0)
  }()

  /// Adds `file`: it is removed at exit unless ``remove(_:)`` removes it first.
  static func add(_ file: String) -> UnsafeMutablePointer<Entry> {
    let entry = UnsafeMutablePointer<Entry>.allocate(capacity: 1)
    let path = UInt(bitPattern: strdup(file))
    var head = Self.newest.load(ordering: .relaxed)
    while true {
      entry.initialize(to: Entry(path: Atomic(path), next: head))
      let (exchanged, original) = Self.newest.compareExchange(
        expected: head, desired: UInt(bitPattern: entry), ordering: .acquiringAndReleasing)
      if exchanged { return entry }
      entry.deinitialize(count: 1)
      head = original
    }
  }

  /// Removes the file now (once: a second call, or the exit's, finds it gone).
  static func remove(_ entry: UnsafeMutablePointer<Entry>) {
    let address = entry.pointee.path.exchange(0, ordering: .acquiringAndReleasing)
    guard let path = UnsafeMutablePointer<CChar>(bitPattern: address) else { return }
    unlink(path)
    free(path)
  }
}
