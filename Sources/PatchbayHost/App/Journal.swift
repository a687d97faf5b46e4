import PatchbayAppQueue
import PatchbayConfig

/// What an app's queue took down for DevTools since the last take
/// (``AppRuntime/takeJournal(reusing:)``), as raw as the queue can leave it: per action only
/// its bytes, a small number for where it was reduced, its source and its timing. Where — the
/// instance, its path, the generation that reduced it — is kept once per instance and
/// generation (a ``Site``), not per action, so an action costs the queue one reference count
/// (its bytes) and a plain append. The entries (``entries``) are put together later, off the
/// queue.
///
/// ```swift
/// let journal = try app.perform { app.takeJournal() }   // on the queue: a swap of arrays
/// journal.entries     // off it: [.reduced(counter, increment, 5310 ticks…), .change(…)]
/// journal.touched     // [(counter's handle, counter)]: the instances to snapshot
/// ```
///
/// `@unchecked Sendable`: a site's `implementation` is only called by
/// ``ReducedAction/text()``, on its app queue; the rest is Sendable.
package struct Journal: @unchecked Sendable {
  /// An instance and the generation that reduced its actions, once per batch.
  struct Site {
    let handle: FeatureHandle
    let path: InstancePath
    let implementation: Implementation
  }

  /// One reduced action as the queue appends it.
  struct Reduced {
    let action: [UInt8]
    let site: Int
    let source: AppChange.Source
    let timing: ReduceTiming
  }

  private var sites: [Site] = []
  private var reduced: [Reduced] = []
  /// Every other change, with how many actions came before it.
  private var changes: [(after: Int, change: AppChange, at: UInt64)] = []

  init() {}

  /// An empty journal with room for `other`'s entries: the next batch is likely alike, and
  /// so the queue's appends do not grow the arrays.
  init(roomOf other: Journal) {
    self.reduced.reserveCapacity(other.reduced.count)
    self.sites.reserveCapacity(other.sites.count)
  }

  /// Empties it, keeping its room: a journal taken and read, emptied off the queue, is handed
  /// back to be the next (``AppRuntime/takeJournal(reusing:)``), so the queue never allocates
  /// for it.
  package mutating func empty() {
    self.sites.removeAll(keepingCapacity: true)
    self.reduced.removeAll(keepingCapacity: true)
    self.changes.removeAll(keepingCapacity: true)
  }

  /// How many entries it holds.
  package var count: Int { self.reduced.count + self.changes.count }

  /// Takes down an action `handle` reduced (at `path`, in `implementation`). [app queue]
  mutating func reduced(
    _ action: [UInt8], by handle: FeatureHandle, at path: InstancePath,
    in implementation: Implementation, source: AppChange.Source, timing: ReduceTiming
  ) {
    // A batch touches a few instances: the last few sites are searched, no more.
    let recent = self.sites.indices.suffix(8)
    let site =
      recent.last {
        self.sites[$0].handle === handle && self.sites[$0].implementation === implementation
      }
      ?? {
        self.sites.append(Site(handle: handle, path: path, implementation: implementation))
        return self.sites.count - 1
      }()
    self.reduced.append(Reduced(action: action, site: site, source: source, timing: timing))
  }

  /// Takes down any other change, and when (``ReduceTiming/now``).
  mutating func changed(_ change: AppChange, at time: UInt64) {
    self.changes.append((self.reduced.count, change, time))
  }

  /// The entries, oldest first. [any thread]
  package var entries: [JournalEntry] {
    var entries: [JournalEntry] = []
    entries.reserveCapacity(self.count)
    var changes = self.changes[...]
    for (index, reduced) in self.reduced.enumerated() {
      while let change = changes.first, change.after == index {
        entries.append(.change(change.change, at: change.at))
        changes = changes.dropFirst()
      }
      let site = self.sites[reduced.site]
      entries.append(
        .reduced(
          ReducedAction(
            path: site.path, implementation: site.implementation, action: reduced.action,
            source: reduced.source, timing: reduced.timing)))
    }
    entries += changes.map { .change($0.change, at: $0.at) }
    return entries
  }

  /// The instances its actions reduced in, each once per generation: what a batch snapshots.
  package var touched: [(handle: FeatureHandle, path: InstancePath)] {
    self.sites.map { ($0.handle, $0.path) }
  }
}
