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
      handle.owned.implementation.destroy()
      next.context.owned.inbox = handle
      handle.owned.implementation = next
      handle.owned.parsedActions.removeAll()
    }
  }
}
