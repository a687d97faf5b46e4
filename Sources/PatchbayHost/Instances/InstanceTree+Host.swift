import PatchbayConfig
import PatchbayInstanceTree

/// The app's instances: an ``InstanceTree`` of handles, whose lookups throw the app's errors
/// and whose removals leave handles that tell the app nothing more.
///
/// ```swift
/// try app.owned.instances.resolve("tallies#a").handle
/// let gone = app.owned.instances.detachSubtree(at: path)  // observers cleared
/// ```
extension InstanceTree where Handle == FeatureHandle {
  /// The instance a person's path names (``InstanceTree/find(_:)``), or why none.
  func resolve(_ text: String) throws(AppError) -> Entry {
    guard let entry = self.find(text) else {
      throw AppError(.noInstance(path: text, live: self.paths.map(\.description)))
    }
    return entry
  }

  /// Takes `path` and everything under it out; returns their handles, parents first.
  mutating func detachSubtree(at path: InstancePath) -> [FeatureHandle] {
    self.removeSubtree(at: path).map { Self.detached($0.handle) }
  }

  /// Drops the instances created after the tree had `count` of them (undoing a failed
  /// creation).
  mutating func detach(after count: Int) {
    for entry in self.truncate(to: count) { _ = Self.detached(entry.handle) }
  }

  /// Everything, for an app that goes: no handle a caller kept tells it anything after.
  mutating func detachAll() -> [FeatureHandle] {
    self.removeAll().map { Self.detached($0.handle) }
  }

  private static func detached(_ handle: FeatureHandle) -> FeatureHandle {
    handle.owned.observer = nil
    return handle
  }
}
