import Foundation
import Patchbay
import PatchbayABI
import PatchbayEncoding
import PatchbayLoader

extension FeatureHandle {
  /// Replaces the implementation of several instances of one feature at once — all of them,
  /// or (on any failure) none — with `feature`, keeping each one's state (docs/ARCHITECTURE.md,
  /// "Swapping a feature"). Call from a job of the executor that owns them.
  ///
  /// ```swift
  /// let alt = try PluginLoader().load("CounterAlt").features[0]
  /// try app.perform { try FeatureHandle.swap([counter], to: alt) }  // count kept, new code runs
  /// ```
  ///
  /// It runs as one job, as a rollback does: no action reduces meanwhile. (An app's swap makes
  /// the successors first, in jobs between which actions reduce, and holds them only to
  /// switch: ``SwapSuccessors``.) For each instance: snapshot → `migrate` when the schemas differ → `create` the new
  /// instance from that state. Only when every instance has its new one does the new code
  /// run. On a failure the new instances are destroyed and the old ones go on as if nothing
  /// happened, effects included.
  ///
  /// The old code's running effects live on (docs/SWAP.md, "Effects across a swap"): a timer
  /// keeps ticking, and its actions reach the new code. The old instance is kept until its
  /// last effect ends; when the new code cancels an id, the old one's effects with that id
  /// are cancelled too. A feature whose new code restarts its effects itself
  /// (`resume_effects`, `PluginFeature.resume`) has the old ones cancelled instead.
  static func swap(_ handles: [FeatureHandle], to feature: LoadedFeature)
    throws(FeatureCallError)
  {
    let successors = SwapSuccessors(to: feature)
    do throws(FeatureCallError) {
      try successors.make(for: handles)
      try successors.switchAll(handles).forEach { $0.destroy() }
      handles.forEach { $0.reapRetired() }
    } catch {
      successors.discard()
      throw error
    }
  }

  /// How many reduces the instance has run: each one counts in ``reducedCount`` or adds a
  /// failure. A swap's successor made at one version holds the state of that version. [executor]
  var stateVersion: UInt64 { self.reducedCount + UInt64(self.owned.failures.count) }

  /// Replaces the instance with one of the same code created from `state` (its schema's
  /// bytes); on a refusal the old one goes on. The old state's effects are cancelled. [executor]
  func restore(_ state: [UInt8]) throws(FeatureCallError) {
    let current = self.owned.implementation
    let context = HostContext(
      executor: current.context.executor, log: current.context.log,
      functions: current.context.resolveFunction)
    let next = try Implementation(
      feature: current.feature, restoring: state, context: context, label: self.label)
    next.context.owned.inbox = self
    self.replace(with: next, keepingEffects: false)?.destroy()
  }

  /// Runs `next`, a new implementation (its context's inbox already this handle), from now on.
  /// Returns the old implementation for the caller to destroy, or, with `keepingEffects` (the
  /// caller found that it ``Implementation/canRetire(for:)``), nil: it is kept while its
  /// effects run (``Owned/retired``) unless `next` restarts them itself; call
  /// ``reapRetired()`` after. [executor]
  func replace(with next: Implementation, keepingEffects: Bool) -> Implementation? {
    let old = self.owned.implementation
    self.owned.implementation = next
    if self.owned.parsedActions.count > 0 { self.owned.parsedActions.removeAll() }
    if !self.owned.carriedActions.isEmpty { self.owned.carriedActions.removeAll() }
    var resumed = false
    self.holdingSends { resumed = next.instance.resumeEffects() == PB_OK }
    if resumed || !keepingEffects {
      self.owned.retired.forEach { $0.destroy() }
      self.owned.retired.removeAll()
    }
    // Whether it runs an effect is asked at the next reap (after a swap's hold, or at the
    // next action): one that runs none is destroyed then.
    let retiring = keepingEffects && !resumed
    if retiring { self.owned.retired.append(old) }
    // A new context counts one generation already: only earlier ones need telling.
    if !self.owned.retired.isEmpty { self.countGenerations() }
    return retiring ? nil : old
  }
}
