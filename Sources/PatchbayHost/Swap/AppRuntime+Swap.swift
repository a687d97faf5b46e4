import Foundation
import Patchbay
import PatchbayABI
import PatchbayEncoding

/// Swapping a feature's implementation under a running app (DESIGN §7; docs/ARCHITECTURE.md).
extension AppRuntime {
  /// Swaps the implementation of a feature — named by a node key (`counter`) or its id
  /// (`dev.patchbay.counter`) — for the one in `plugin` (a name searched on the app's plugin
  /// paths, or a path), in every live instance and for every instance created later. Each
  /// instance keeps its state (migrated when the schemas differ); actions sent meanwhile wait
  /// and then reach the new code in order. Any failure changes nothing and says why.
  ///
  /// ```swift
  /// try app.swap("counter", to: "CounterAlt")
  /// try app.send("counter", "increment")   // CounterAlt reduces it, from Counter's count
  /// ```
  @discardableResult
  public func swap(_ feature: String, to plugin: String) throws(AppError) -> SwapReport {
    let clock = ContinuousClock()
    let start = clock.now
    let id = try self.featureID(named: feature)
    let loaded: LoadedPlugin
    do {
      loaded = try self.plugin(plugin)
    } catch {
      throw AppError("swap \(feature): \(error.description) The old implementation keeps running.")
    }
    guard let replacement = loaded.features.first(where: { $0.id == id }) else {
      throw AppError(
        "swap \(feature): \(loaded.path) has no feature '\(id)' (it has: "
          + "\(loaded.features.map(\.id).joined(separator: ", "))). A swap replaces a feature with "
          + "another implementation of the same id. The old implementation keeps running.")
    }
    // The switch itself runs on the app queue, so no action interleaves: actions sent
    // meanwhile wait their turn and reach the new code.
    let (previous, swapped, held) = try self.executor.sync {
      () throws(AppError) -> (LoadedFeature?, [String], Duration) in
      let previous = self.features[id]
      let targets = self.instances.filter {
        $0.handle.feature.id == id && $0.handle.feature !== replacement
      }
      let holding = clock.now
      do throws(FeatureCallError) {
        try FeatureHandle.swap(targets.map(\.handle), to: replacement)
      } catch {
        throw AppError(
          "swap \(feature) to \(loaded.path) refused: \(error.description). The old implementation "
            + "keeps running, with its state.")
      }
      self.features.replace(with: replacement)
      return (previous, targets.map(\.path), clock.now - holding)
    }
    if self.tracksStateChanges {
      // Diffs start again from the new schema.
      for path in swapped {
        if let state = try? self.instance(path).stateValue() {
          self.lastStates.withValue { $0?[path] = state }
        }
      }
    }
    let report = SwapReport(
      featureID: id, from: previous?.plugin.path ?? "", to: loaded.path,
      generation: loaded.generation,
      fromSchema: previous?.schemaVersion ?? replacement.schemaVersion,
      toSchema: replacement.schemaVersion, instances: swapped, duration: clock.now - start,
      held: held)
    self.changeHandler.value?(.swap(report))
    return report
  }

  /// The plugin `reference` names: the load already made of that file when it has not changed
  /// since (swapping back and forth maps no new code), else a new generation.
  func plugin(_ reference: String) throws(PluginLoadError) -> LoadedPlugin {
    let file = try self.loader.locate(reference).path
    if let identity = FileIdentity(path: file),
      let loaded = self.executor.sync({
        self.features.plugins.last { $0.path == file && $0.fileIdentity == identity }
      })
    {
      return loaded
    }
    return try self.loader.load(file)
  }

  /// The feature id a node key or an id names.
  func featureID(named name: String) throws(AppError) -> String {
    if let node = self.config.node(name) { return node.featureID }
    let ids = self.registry.featureIDs
    if ids.contains(name) { return name }
    let keys = self.config.nodes.map(\.key)
    throw AppError(
      "swap: no feature '\(name)'.\(suggestion(for: name, among: keys + ids)) Name a node "
        + "(\(keys.joined(separator: ", "))) or a feature id (\(ids.joined(separator: ", "))).")
  }
}
