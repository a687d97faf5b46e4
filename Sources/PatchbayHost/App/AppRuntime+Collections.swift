import Foundation
import Patchbay
import PatchbayABI
import PatchbayConfig
import PatchbayEncoding

/// Collections: instances of one node by id, added and removed by command.
extension AppRuntime {
  /// Adds an instance with `id` to the collection at `path` (`home/tallies`, or `tallies`
  /// while its parent has one live instance), from `state` (snapshot bytes) when given.
  ///
  /// ```swift
  /// try app.add(to: "home/tallies", id: "c")
  /// try app.send("home/tallies#c", "increment")
  /// ```
  public func add(to path: String, id: String, state: [UInt8]? = nil) throws(AppError) {
    if let problem = AppConfig.problem(withInstanceID: id) { throw AppError(.invalidID(problem)) }
    try self.executor.sync { () throws(AppError) in
      let (parent, node) = try self.collection(at: path)
      let instancePath = parent.appending(node.key, instance: id)
      let collection = parent.appending(node.key).description
      if self.owned.instances.contains(instancePath) {
        throw AppError(.duplicateID(collection: collection, id: id))
      }
      try self.sharingAfter { () throws(AppError) in
        try self.allOrNothing { () throws(AppError) in
          try self.create(node: node.key, at: instancePath, state: state)
        }
        self.publish(.collection(path: collection, id: id, added: true, state: state))
      }
    }
  }

  /// Removes the instance `id` from the collection at `path`, cancelling its effects.
  public func remove(from path: String, id: String) throws(AppError) {
    try self.executor.sync { () throws(AppError) in
      let (parent, node) = try self.collection(at: path)
      let instancePath = parent.appending(node.key, instance: id)
      let collection = parent.appending(node.key).description
      guard self.owned.instances.contains(instancePath) else {
        let ids = self.owned.instances.ids(inCollection: node.key, under: parent)
        throw AppError(.noSuchID(collection: collection, id: id, ids: ids))
      }
      let removed = self.owned.instances.detachSubtree(at: instancePath)
      self.attachedPlayer.player?.stop(removed)
      for handle in removed.reversed() { handle.cancelEffects() }
      self.publish(.collection(path: collection, id: id, added: false, state: nil))
    }
  }

  /// The ids live in the collection at `path` (`home/tallies`), in the order they were added.
  public func ids(in path: String) -> [String] {
    guard let collection = InstancePath(parsing: path), let parent = collection.parent else {
      return []
    }
    return self.executor.sync {
      self.owned.instances.ids(inCollection: collection.last.key, under: parent)
    }
  }

  /// The live parent instance and the node of the collection `path` names. On the app queue.
  func collection(at path: String) throws(AppError) -> (InstancePath, AppConfig.Node) {
    let query = InstancePath(parsing: path)
    let collections = self.config.nodes.filter { $0.kind == .collection }.map(\.key)
    guard let query, let node = self.config.node(query.last.key), node.kind == .collection,
      let parentKey = node.parent
    else {
      throw AppError(.notACollection(path: path, collections: collections))
    }
    // `home/tallies`: the parent is named in (short or full) form; `tallies`: any live
    // instance of the parent node.
    let parents = self.owned.instances.instances(ofNode: parentKey).map(\.path).filter { live in
      query.parent.map { live.matches($0) } ?? true
    }
    guard parents.count == 1 else {
      throw AppError(
        parents.isEmpty
          ? .collectionParentNotLive(path: path, parent: parentKey)
          : .ambiguousCollection(
            path: path, parent: parentKey, parents: parents.map(\.description)))
    }
    return (parents[0], node)
  }
}
