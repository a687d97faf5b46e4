import Foundation
import Patchbay
import PatchbayABI
import PatchbayConfig
import PatchbayEncoding
import PatchbayLoader

/// A swap in two halves (docs/ARCHITECTURE.md, "Swapping a feature"): ``prepare(_:to:)``
/// finds and loads the new plugin and checks it implements the feature, off the app queue
/// and changing nothing; ``AppRuntime/swap(_:to:)`` then switches every live instance in one
/// job on the app queue, so no action interleaves.
struct SwapCoordinator {
  /// What a prepared swap switches to.
  struct Prepared {
    let featureID: String
    let plugin: LoadedPlugin
    let replacement: LoadedFeature
  }

  let config: AppConfig
  let loader: PluginLoader

  /// Loads `plugin` and finds the feature `feature` names (a node key or a feature id) in
  /// it. `registry` is the app's, read once on the app queue.
  func prepare(_ feature: String, to plugin: String, registry: FeatureRegistry) throws(AppError)
    -> Prepared
  {
    let id = try self.featureID(named: feature, registry: registry)
    let loaded: LoadedPlugin
    do {
      loaded = try self.plugin(plugin, registry: registry)
    } catch {
      throw AppError(.swapPlugin(feature: feature, reason: error.description))
    }
    guard let replacement = loaded.features.first(where: { $0.id == id }) else {
      throw AppError(
        .swapPlugin(
          feature: feature,
          reason: "\(loaded.path) has no feature '\(id)' (it has: "
            + "\(loaded.features.map(\.id).joined(separator: ", "))). A swap replaces a feature "
            + "with another implementation of the same id."))
    }
    return Prepared(featureID: id, plugin: loaded, replacement: replacement)
  }

  /// The plugin `reference` names: the load already made of that file when it has not changed
  /// since (swapping back and forth maps no new code), else a new generation.
  func plugin(_ reference: String, registry: FeatureRegistry) throws(PluginLoadError)
    -> LoadedPlugin
  {
    let file = try self.loader.locate(reference).path
    if let identity = FileIdentity(path: file),
      let loaded = registry.plugins.last(where: { $0.path == file && $0.fileIdentity == identity })
    {
      return loaded
    }
    return try self.loader.load(file)
  }

  /// The feature id a node key or an id names.
  func featureID(named name: String, registry: FeatureRegistry) throws(AppError) -> String {
    if let node = self.config.node(name) { return node.featureID }
    let ids = registry.featureIDs
    if ids.contains(name) { return name }
    throw AppError(.noFeature(name: name, nodes: self.config.nodes.map(\.key), ids: ids))
  }
}

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
    do {
      return try self.performSwap(feature, to: plugin)
    } catch {
      self.hooks.refuseSwap(error.description)
      throw error
    }
  }

  private func performSwap(_ feature: String, to plugin: String) throws(AppError) -> SwapReport {
    let clock = ContinuousClock()
    let start = clock.now
    if self.config.node(feature) == nil, self.registry[feature] == nil,
      let provider = self.registry.currentPlugins.first(where: {
        $0.id == feature || $0.name == feature
      })
    {
      return try self.swapFunctions(of: provider, to: plugin, since: start)
    }
    let coordinator = SwapCoordinator(config: self.config, loader: self.loader)
    let prepared = try coordinator.prepare(feature, to: plugin, registry: self.registry)
    let (id, replacement) = (prepared.featureID, prepared.replacement)
    let (previous, swapped, held) = try self.executor.sync {
      () throws(AppError) -> (LoadedFeature?, [InstancePath], Duration) in
      let previous = self.owned.features[id]
      let targets = self.owned.instances.entries.filter {
        $0.handle.feature.id == id && $0.handle.feature !== replacement
      }
      // A resolved function must survive the swap with its signature.
      var next = self.owned.features
      next.replace(with: replacement)
      if let refusal = self.functions.refusal(in: next) {
        throw AppError(
          .swapRefused(feature: feature, plugin: prepared.plugin.path, reason: refusal.description))
      }
      let holding = clock.now
      do throws(FeatureCallError) {
        try FeatureHandle.swap(targets.map(\.handle), to: replacement)
      } catch {
        throw AppError(
          .swapRefused(
            feature: feature, plugin: prepared.plugin.path, reason: error.description))
      }
      self.owned.features.replace(with: replacement)
      self.flight?.write(.swap(feature: id, plugin: prepared.plugin.path))
      self.functions.retarget(in: self.owned.features)
      if let previous, previous !== replacement { self.startProbation(replacement, from: previous) }
      let held = clock.now - holding
      // The new code's processors play from the next period; the old ones are freed once
      // the audio thread has let go of them.
      for target in targets {
        do throws(AppError) {
          try self.attachedPlayer.player?.play(target.handle, at: target.path)
        } catch {
          self.fail(error)
        }
      }
      // Diffs start again from the new schema.
      for target in targets {
        self.changes.states.track(target.path, state: try? target.handle.snapshot())
        self.applyShared(of: target.handle, at: target.path)
      }
      return (previous, targets.map(\.path), held)
    }
    let report = SwapReport(
      featureID: id, from: previous?.plugin.path ?? "", to: prepared.plugin.path,
      generation: prepared.plugin.generation,
      fromSchema: previous?.schemaVersion ?? replacement.schemaVersion,
      toSchema: replacement.schemaVersion, instances: swapped.map(\.description),
      duration: clock.now - start, held: held)
    self.publish(.swap(report))
    return report
  }
}

extension AppRuntime {
  /// Swaps a plugin that only exports functions (it has no features): the functions resolved
  /// from it move to the new generation, or the swap is refused if one would be lost.
  func swapFunctions(
    of provider: LoadedPlugin, to plugin: String, since start: ContinuousClock.Instant
  )
    throws(AppError) -> SwapReport
  {
    let clock = ContinuousClock()
    guard provider.features.isEmpty else {
      throw AppError(
        .swapPlugin(
          feature: provider.id,
          reason: "\(provider.name) has features; swap them by name "
            + "(\(provider.features.map(\.id).joined(separator: ", "))), and its functions move too."
        ))
    }
    let coordinator = SwapCoordinator(config: self.config, loader: self.loader)
    let loaded: LoadedPlugin
    do {
      loaded = try coordinator.plugin(plugin, registry: self.registry)
    } catch {
      throw AppError(.swapPlugin(feature: provider.id, reason: error.description))
    }
    guard loaded.id == provider.id else {
      throw AppError(
        .swapPlugin(
          feature: provider.id,
          reason: "\(loaded.path) is plugin '\(loaded.id)', not '\(provider.id)'."))
    }
    let held = try self.executor.sync { () throws(AppError) -> Duration in
      var next = self.owned.features
      next.replace(plugin: loaded)
      if let refusal = self.functions.refusal(in: next) {
        throw AppError(
          .swapRefused(feature: provider.id, plugin: loaded.path, reason: refusal.description))
      }
      let holding = clock.now
      self.owned.features = next
      self.flight?.write(.swap(feature: provider.id, plugin: loaded.path))
      self.functions.retarget(in: next)
      return clock.now - holding
    }
    let report = SwapReport(
      featureID: provider.id, from: provider.path, to: loaded.path, generation: loaded.generation,
      fromSchema: 0, toSchema: 0, instances: [], duration: clock.now - start, held: held)
    self.publish(.swap(report))
    return report
  }
}
