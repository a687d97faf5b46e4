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
  /// instance from that state. Only when every instance has its new one are the old ones'
  /// effects cancelled (an effect's late send is dropped) and the old instances destroyed.
  /// On a failure the new instances are destroyed and the old ones go on as if nothing
  /// happened, effects included.
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
      handle.replace(with: next)
    }
  }

  /// Replaces the instance with one of the same code created from `state` (its schema's
  /// bytes); on a refusal the old one goes on. [executor]
  func restore(_ state: [UInt8]) throws(FeatureCallError) {
    let current = self.owned.implementation
    let context = HostContext(
      executor: current.context.executor, log: current.context.log,
      functions: current.context.resolveFunction)
    self.replace(
      with: try Implementation(
        feature: current.feature, restoring: state, context: context, label: self.label))
  }

  /// Destroys the implementation and runs `next` from now on. [executor]
  private func replace(with next: Implementation) {
    self.owned.implementation.destroy()
    next.context.owned.inbox = self
    self.owned.implementation = next
    self.owned.parsedActions.removeAll()
  }
}
