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
  /// It runs as one job: no action reduces while it does (effects' actions wait their turn).
  /// For each instance: snapshot → `migrate` when the schemas differ → `create` the new
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
    var created: [Implementation] = []
    do throws(FeatureCallError) {
      for handle in handles {
        created.append(
          try handle.owned.implementation.successor(
            feature, limit: handle.limits.stateBytes, label: handle.label))
      }
    } catch {
      created.forEach { $0.destroy() }
      throw error
    }
    for (handle, next) in zip(handles, created) {
      handle.replace(with: next, keepingEffects: true)
    }
  }

  /// Replaces the instance with one of the same code created from `state` (its schema's
  /// bytes); on a refusal the old one goes on. The old state's effects are cancelled. [executor]
  func restore(_ state: [UInt8]) throws(FeatureCallError) {
    let current = self.owned.implementation
    let context = HostContext(
      executor: current.context.executor, log: current.context.log,
      functions: current.context.resolveFunction)
    self.replace(
      with: try Implementation(
        feature: current.feature, restoring: state, context: context, label: self.label),
      keepingEffects: false)
  }

  /// Runs `next` from now on. The old implementation is destroyed, or, with
  /// `keepingEffects`, kept while its effects run (``Owned/retired``) unless `next` restarts
  /// them itself. [executor]
  private func replace(with next: Implementation, keepingEffects: Bool) {
    let old = self.owned.implementation
    next.context.owned.inbox = self
    self.owned.implementation = next
    self.owned.parsedActions.removeAll()
    self.owned.carriedActions.removeAll()
    var resumed = false
    self.holdingSends { resumed = next.instance.resumeEffects() == PB_OK }
    if keepingEffects, !resumed, old.canRetire(for: next) {
      self.owned.retired.append(old)
    } else {
      old.destroy()
    }
    if resumed || !keepingEffects {
      self.owned.retired.forEach { $0.destroy() }
      self.owned.retired.removeAll()
    }
    self.reapRetired()
  }
}
