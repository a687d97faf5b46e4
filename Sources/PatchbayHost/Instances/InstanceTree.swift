import PatchbayConfig

/// The app's live instances by path, in the order they were created (root first, a parent
/// before its children). A value the app executor owns; nothing here locks.
///
/// ```swift
/// var tree = InstanceTree()
/// tree.insert(counter, at: InstancePath(root: "counter"))
/// try tree.resolve("counter").handle  // counter
/// tree.removeSubtree(at: path)       // the instance and everything under it
/// ```
package struct InstanceTree {
  package struct Entry {
    package let path: InstancePath
    package let handle: FeatureHandle
    /// `path` as text, kept: most lookups are of an exact path, and comparing text parses
    /// and allocates nothing (a send is a few hundred nanoseconds).
    let text: String
  }

  package private(set) var entries: [Entry] = []

  var paths: [InstancePath] { self.entries.map(\.path) }
  var handles: [FeatureHandle] { self.entries.map(\.handle) }
  var count: Int { self.entries.count }

  mutating func insert(_ handle: FeatureHandle, at path: InstancePath) {
    self.entries.append(Entry(path: path, handle: handle, text: path.description))
  }

  /// The instance at exactly `path`.
  subscript(path: InstancePath) -> FeatureHandle? {
    self.entries.first { $0.path == path }?.handle
  }

  func contains(_ path: InstancePath) -> Bool { self[path] != nil }

  /// The instance a person's path names — exactly, or by a short form that fits one live
  /// instance: `echo` for `echo#1`, `practice/quiz` for `practice#1/quiz`, `tallies#a` for
  /// `home/tallies#a`.
  func resolve(_ text: String) throws(AppError) -> Entry {
    if let exact = self.entries.first(where: { $0.text == text }) { return exact }
    if let query = InstancePath(parsing: text) {
      var matches = self.entries.filter { $0.path.matches(query) }
      if matches.isEmpty { matches = self.entries.filter { $0.path.ends(with: query) } }
      if matches.count == 1 { return matches[0] }
    }
    throw AppError(.noInstance(path: text, live: self.paths.map(\.description)))
  }

  /// Everything under `path`, not `path` itself, in creation order.
  func descendants(of path: InstancePath) -> [Entry] {
    self.entries.filter { $0.path != path && $0.path.isWithin(path) }
  }

  /// The ids live in the collection `key` under `parent`, in the order they were added.
  func ids(inCollection key: String, under parent: InstancePath) -> [String] {
    self.entries.compactMap { entry in
      guard entry.path.parent == parent, entry.path.last.key == key else { return nil }
      return entry.path.last.instance
    }
  }

  /// Takes `path` and everything under it out; returns their handles, parents first. They
  /// tell the app nothing from now on (their observers are cleared).
  mutating func removeSubtree(at path: InstancePath) -> [FeatureHandle] {
    let removed = self.entries.filter { $0.path.isWithin(path) }
    self.entries.removeAll { $0.path.isWithin(path) }
    return removed.map { Self.detached($0.handle) }
  }

  /// Drops the instances created after the tree had `count` of them (undoing a failed
  /// creation).
  mutating func truncate(to count: Int) {
    self.entries[count...].forEach { _ = Self.detached($0.handle) }
    self.entries.removeSubrange(count...)
  }

  /// Everything, for an app that goes: no handle a caller kept tells it anything after.
  mutating func removeAll() -> [FeatureHandle] {
    defer { self.entries.removeAll() }
    return self.entries.map { Self.detached($0.handle) }
  }

  private static func detached(_ handle: FeatureHandle) -> FeatureHandle {
    handle.owned.observer = nil
    return handle
  }
}
