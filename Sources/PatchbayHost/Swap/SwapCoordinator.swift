import Foundation
import Patchbay
import PatchbayABI
import PatchbayConfig
import PatchbayEncoding
import PatchbayFunctionTable
import PatchbayInstanceTree
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
      loaded = try self.plugin(plugin, registry: registry, grantedAs: registry[id]?.plugin.path)
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
  /// since (swapping back and forth maps no new code), else a new generation, granted what
  /// the code it replaces (at `previous`) was.
  func plugin(_ reference: String, registry: FeatureRegistry, grantedAs previous: String? = nil)
    throws(PluginLoadError) -> LoadedPlugin
  {
    // `lv2:URI`: the plugin installed now, read again.
    if PluginLoader.scheme(of: reference) != nil { return try self.loader.load(reference) }
    let file = try self.loader.locate(reference).path
    if let identity = FileIdentity(path: file),
      let loaded = registry.plugins.last(where: { $0.path == file && $0.fileIdentity == identity })
    {
      return loaded
    }
    return try self.loader.load(file, grantedAs: previous)
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
    let (successors, made) = try self.makeSuccessors(
      id, to: replacement, feature: feature, plugin: prepared)
    let (previous, swapped, held, old) = try self.executor.sync {
      () throws(AppError) -> (
        LoadedFeature?, [InstanceTree<FeatureHandle>.Entry], Duration, [Implementation]
      ) in
      let holding = clock.now
      let previous = self.owned.features[id]
      // The instances the successors were made for, unless one came or went since.
      let targets =
        made.version == self.owned.instances.version
        ? made.targets : self.swapTargets(id, to: replacement)
      // A resolved function must survive the swap with its signature.
      var next = self.owned.features
      next.replace(with: replacement)
      if let refusal = self.functions.refusal(in: next) {
        successors.discard()
        throw AppError(
          .swapRefused(feature: feature, plugin: prepared.plugin.path, reason: refusal.description))
      }
      let old: [Implementation]
      do throws(FeatureCallError) {
        old = try successors.switchAll(targets.map(\.handle))
      } catch {
        successors.discard()
        throw AppError(
          .swapRefused(
            feature: feature, plugin: prepared.plugin.path, reason: error.description))
      }
      self.owned.features.replace(with: replacement)
      self.flight?.write(.swap(feature: id, plugin: prepared.plugin.path))
      self.functions.retarget(in: self.owned.features)
      if let previous, previous !== replacement { self.startProbation(replacement, from: previous) }
      // Each a pass over the instances only when there is something to do: the new code's
      // processors play from the next period (the old ones are freed once the audio thread
      // has let go of them); diffs start again from the new schema; shared values the new
      // instances asked for are applied.
      if let player = self.attachedPlayer.player {
        for target in targets {
          do throws(AppError) {
            try player.play(target.handle, at: target.path)
          } catch {
            self.fail(error)
          }
        }
      }
      if self.changes.states.isTracking {
        for target in targets {
          self.changes.states.track(target.path, state: try? target.handle.snapshot())
        }
      }
      if successors.askedForShared {
        targets.forEach { self.applyShared(of: $0.handle, at: $0.path) }
      }
      return (previous, targets, clock.now - holding, old)
    }
    // After the hold, a batch a job: the replaced code is freed, and kept only where it
    // runs an effect.
    for start in stride(from: 0, to: old.count, by: SwapSuccessors.batch) {
      let batch = old[start..<min(start + SwapSuccessors.batch, old.count)]
      self.executor.sync { batch.forEach { $0.destroy() } }
    }
    for start in stride(from: 0, to: swapped.count, by: SwapSuccessors.batch) {
      let batch = swapped[start..<min(start + SwapSuccessors.batch, swapped.count)]
      self.executor.sync { batch.forEach { $0.handle.reapRetired() } }
    }
    let report = SwapReport(
      featureID: id, from: previous?.plugin.path ?? "", to: prepared.plugin.path,
      generation: prepared.plugin.generation,
      fromSchema: previous?.schemaVersion ?? replacement.schemaVersion,
      toSchema: replacement.schemaVersion, instances: swapped.map(\.path.description),
      duration: clock.now - start, held: held)
    self.publish(.swap(report))
    return report
  }
}

extension AppRuntime {
  /// The live instances a swap of feature `id` to `replacement` switches. [app queue]
  func swapTargets(_ id: String, to replacement: LoadedFeature) -> [InstanceTree<FeatureHandle>
    .Entry]
  {
    self.owned.instances.entries.filter {
      let running = $0.handle.owned.implementation.feature
      return running.id == id && running !== replacement
    }
  }

  /// The first half of a swap: a successor for each instance the swap will switch, made in
  /// jobs of ``SwapSuccessors/batch`` instances between which actions reduce as usual. On a
  /// refusal, what was made is destroyed and nothing changed. Returns them, with the
  /// instances they were made for and the instance tree's version then.
  private func makeSuccessors(
    _ id: String, to replacement: LoadedFeature, feature: String,
    plugin prepared: SwapCoordinator.Prepared
  ) throws(AppError) -> (
    SwapSuccessors, (targets: [InstanceTree<FeatureHandle>.Entry], version: Int)
  ) {
    let successors = SwapSuccessors(to: replacement)
    let made = self.executor.sync {
      (targets: self.swapTargets(id, to: replacement), version: self.owned.instances.version)
    }
    let handles = made.targets.map(\.handle)
    for start in stride(from: 0, to: handles.count, by: SwapSuccessors.batch) {
      let batch = handles[start..<min(start + SwapSuccessors.batch, handles.count)]
      do throws(FeatureCallError) {
        try self.executor.sync { () throws(FeatureCallError) in try successors.make(for: batch) }
      } catch {
        self.executor.sync { successors.discard() }
        throw AppError(
          .swapRefused(feature: feature, plugin: prepared.plugin.path, reason: error.description))
      }
    }
    return (successors, made)
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
