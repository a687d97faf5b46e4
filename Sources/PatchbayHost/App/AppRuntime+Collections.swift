import Foundation
import Patchbay
import PatchbayABI
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
    if let problem = AppConfig.problem(withInstanceID: id) { throw AppError(problem) }
    let collection = try self.executor.sync { () throws(AppError) -> String in
      let (collection, node) = try self.collection(at: path)
      let instancePath = "\(collection)#\(id)"
      if self.instances.contains(where: { $0.path == instancePath }) {
        throw AppError("'\(collection)' already has '\(id)'; remove it first, or pick another id.")
      }
      try self.allOrNothing { () throws(AppError) in
        try self.create(node: node.key, at: instancePath, state: state)
      }
      return collection
    }
    self.executor.sync {
      self.changeHandler.value?(.collection(path: collection, id: id, added: true, state: state))
    }
  }

  /// Removes the instance `id` from the collection at `path`, cancelling its effects.
  public func remove(from path: String, id: String) throws(AppError) {
    let (collection, removed) = try self.executor.sync {
      () throws(AppError) -> (String, [FeatureHandle]) in
      let (collection, _) = try self.collection(at: path)
      let instancePath = "\(collection)#\(id)"
      guard self.instances.contains(where: { $0.path == instancePath }) else {
        let ids = self.ids(in: collection)
        throw AppError(
          "'\(collection)' has no '\(id)'.\(suggestion(for: id, among: ids))"
            + " It has: \(ids.isEmpty ? "nothing" : ids.joined(separator: ", ")).")
      }
      return (collection, self.remove(prefix: instancePath))
    }
    self.executor.sync {
      for handle in removed.reversed() { handle.cancelEffects() }
      self.changeHandler.value?(.collection(path: collection, id: id, added: false, state: nil))
    }
  }

  /// The ids live in the collection at `path`, in the order they were added.
  public func ids(in path: String) -> [String] {
    self.executor.sync {
      self.instances.compactMap { instance in
        guard instance.path.hasPrefix(path + "#"),
          !instance.path.dropFirst(path.count + 1).contains("/")
        else { return nil }
        return String(instance.path.dropFirst(path.count + 1))
      }
    }
  }

  /// Runs `body`, which creates instances; if it throws, the instances it created are taken
  /// out again, so a failed request changes nothing. On the app queue.
  func allOrNothing(_ body: () throws(AppError) -> Void) throws(AppError) {
    let count = self.instances.count
    do {
      try body()
    } catch {
      self.instances.removeSubrange(count...)
      throw error
    }
  }

  /// The full path (`home/tallies`) and node of the collection `path` names. On the app queue.
  func collection(at path: String) throws(AppError) -> (String, AppConfig.Node) {
    let key = String(path.split(separator: "/").last ?? "")
    let collections = self.config.nodes.filter { $0.kind == .collection }.map(\.key)
    guard let node = self.config.node(key), node.kind == .collection, let parentKey = node.parent
    else {
      throw AppError(
        "'\(path)' is not a collection.\(suggestion(for: key, among: collections))"
          + (collections.isEmpty
            ? " This app has none." : " Collections: \(collections.joined(separator: ", "))."))
    }
    let parents: [String]
    if path.contains("/") {
      let prefix = String(path[..<path.lastIndex(of: "/")!])
      parents = self.instances.map(\.path).filter { $0 == prefix || Self.strip($0) == prefix }
    } else {
      parents = self.instances.map(\.path).filter {
        Self.strip($0).split(separator: "/").last.map(String.init) == parentKey
      }
    }
    guard parents.count == 1 else {
      throw AppError(
        parents.isEmpty
          ? "'\(path)': its parent '\(parentKey)' is not live; navigate to it first."
          : "'\(path)' is ambiguous: '\(parentKey)' is live at \(parents.joined(separator: ", ")); write the full path (\(parents[0])/\(key))."
      )
    }
    return ("\(parents[0])/\(key)", node)
  }
}
