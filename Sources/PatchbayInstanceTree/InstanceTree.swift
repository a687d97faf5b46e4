import PatchbayConfig

/// An app's live instances by path, in the order they were created (root first, a parent
/// before its children). A value its owner (the app's executor) keeps; nothing here locks.
///
/// ```swift
/// var tree = InstanceTree<FeatureHandle>()
/// tree.insert(counter, at: InstancePath(root: "counter"))
/// tree.find("counter")?.handle       // counter
/// tree.removeSubtree(at: path)       // the instance and everything under it
/// ```
///
/// Its cost does not grow with the app: finding an instance by its exact path is one hash
/// lookup, adding one is an append, and removing one is O(1) amortized, plus what is removed
/// (a removed instance leaves a hole in the creation order, and the holes are closed in one
/// pass once they are half of it). A collection of 100,000 rows costs a send to one of them
/// what a collection of one does (docs/BENCHMARKS.md, "Growth").
package struct InstanceTree<Handle: AnyObject> {
  package struct Entry {
    package let path: InstancePath
    package let handle: Handle
    /// `path` as text, kept: most lookups are of an exact path, and comparing text parses
    /// and allocates nothing.
    package let text: String
  }

  /// Creation order, with a nil where an instance was removed.
  private var slots: [Entry?] = []
  private var holes = 0
  /// Where each live instance is in `slots`, by its path's text.
  private var slotByText: [String: Int] = [:]
  /// The slots of each node's live instances, by the node's key.
  private var slotsByKey: [String: Set<Int>] = [:]
  /// How many live instances have each path (as text) as their parent; none: no entry.
  private var childCount: [String: Int] = [:]

  /// Moves on at every insert and removal: the same number means the same live instances.
  package private(set) var version = 0

  package init() {}

  /// Every live instance, in creation order.
  package var entries: [Entry] { self.slots.compactMap { $0 } }
  package var paths: [InstancePath] { self.entries.map(\.path) }
  package var handles: [Handle] { self.entries.map(\.handle) }
  package var count: Int { self.slots.count - self.holes }

  package mutating func insert(_ handle: Handle, at path: InstancePath) {
    let entry = Entry(path: path, handle: handle, text: path.description)
    self.index(entry, at: self.slots.count)
    self.slots.append(entry)
  }

  /// The instance at exactly `path`.
  package subscript(path: InstancePath) -> Handle? {
    self.slotByText[path.description].flatMap { self.slots[$0]?.handle }
  }

  package func contains(_ path: InstancePath) -> Bool { self[path] != nil }

  /// The entry at exactly `text`.
  package func exactly(_ text: String) -> Entry? {
    self.slotByText[text].flatMap { self.slots[$0] }
  }

  /// The instance a person's path names — exactly, or by a short form that fits one live
  /// instance: `echo` for `echo#1`, `practice/quiz` for `practice#1/quiz`, `tallies#a` for
  /// `home/tallies#a`. Nil when none does, or several.
  package func find(_ text: String) -> Entry? {
    if let exact = self.exactly(text) { return exact }
    guard let query = InstancePath(parsing: text) else { return nil }
    let entries = self.entries
    var matches = entries.filter { $0.path.matches(query) }
    if matches.isEmpty { matches = entries.filter { $0.path.ends(with: query) } }
    return matches.count == 1 ? matches[0] : nil
  }

  /// The live instances of the node `key`, in creation order.
  package func instances(ofNode key: String) -> [Entry] {
    (self.slotsByKey[key] ?? []).sorted().compactMap { self.slots[$0] }
  }

  /// The newest live top-level instance of the node `key`: the screen pushed last (`echo#3`).
  package func newestScreen(ofNode key: String) -> Entry? {
    self.instances(ofNode: key).last { $0.path.segments.count == 1 }
  }

  /// Everything under `path`, not `path` itself, in creation order.
  package func descendants(of path: InstancePath) -> [Entry] {
    guard self.childCount[path.description] != nil else { return [] }
    return self.entries.filter { $0.path != path && $0.path.isWithin(path) }
  }

  /// The ids live in the collection `key` under `parent`, in the order they were added.
  package func ids(inCollection key: String, under parent: InstancePath) -> [String] {
    self.instances(ofNode: key).compactMap { entry in
      entry.path.parent == parent ? entry.path.last.instance : nil
    }
  }

  /// Takes `path` and everything under it out; returns their entries, parents first.
  package mutating func removeSubtree(at path: InstancePath) -> [Entry] {
    guard let top = self.exactly(path.description) else { return [] }
    let removed = [top] + self.descendants(of: path)
    for entry in removed { self.remove(entry) }
    self.closeHoles()
    return removed
  }

  /// Drops the instances created after the tree had `count` of them (undoing a failed
  /// creation); returns them.
  package mutating func truncate(to count: Int) -> [Entry] {
    var removed: [Entry] = []
    while self.count > count, let last = self.slots.last {
      if let last {
        self.remove(last)
        removed.append(last)
      }
      self.slots.removeLast()
      self.holes -= 1
    }
    return removed.reversed()
  }

  /// Everything, for an app that goes.
  package mutating func removeAll() -> [Entry] {
    defer { self = Self(after: self) }
    return self.entries
  }

  /// An empty tree whose version is past `tree`'s.
  private init(after tree: Self) {
    self.version = tree.version + 1
  }

  private mutating func index(_ entry: Entry, at slot: Int) {
    self.version += 1
    self.slotByText[entry.text] = slot
    self.slotsByKey[entry.path.last.key, default: []].insert(slot)
    if let parent = entry.path.parent { self.childCount[parent.description, default: 0] += 1 }
  }

  /// Takes `entry` out of the indexes and leaves a hole where it was.
  private mutating func remove(_ entry: Entry) {
    guard let slot = self.slotByText.removeValue(forKey: entry.text) else { return }
    self.version += 1
    self.slots[slot] = nil
    self.holes += 1
    self.slotsByKey[entry.path.last.key]?.remove(slot)
    if self.slotsByKey[entry.path.last.key]?.isEmpty == true {
      self.slotsByKey[entry.path.last.key] = nil
    }
    if let parent = entry.path.parent?.description {
      self.childCount[parent, default: 1] -= 1
      if self.childCount[parent] == 0 { self.childCount[parent] = nil }
    }
  }

  /// Once the holes are half the slots, packs the live entries and indexes them again.
  private mutating func closeHoles() {
    guard self.holes > 32, 2 * self.holes > self.slots.count else { return }
    let live = self.entries
    self = Self(after: self)
    for entry in live {
      self.index(entry, at: self.slots.count)
      self.slots.append(entry)
    }
  }
}
