import Foundation
import Patchbay
import PatchbayABI
import PatchbayEncoding
import Synchronization

extension FeatureHandle {
  /// Replaces the implementation of several instances of one feature at once — all of them,
  /// or (on any failure) none — with `feature`, keeping each one's state (DESIGN §7).
  ///
  /// ```swift
  /// let alt = try PluginLoader().load("CounterAlt").features[0]
  /// try FeatureHandle.swap([counter], to: alt)   // count kept, CounterAlt's code runs
  /// ```
  ///
  /// While it runs, each instance's queue holds new actions (sends queue; nothing reduces).
  /// For each instance: snapshot → `migrate` when the schemas differ → `create` the new
  /// instance from that state. Only when every instance has its new one are the old ones'
  /// effects cancelled (an effect's late send is dropped) and the old instances destroyed;
  /// the held actions then go to the new instances, in order. On a failure the new instances
  /// are destroyed and the old ones go on as if nothing happened, effects included.
  public static func swap(_ handles: [FeatureHandle], to feature: LoadedFeature)
    throws(FeatureCallError)
  {
    var failure: FeatureCallError?
    Self.holdingInstances(handles[...]) {
      var created: [Implementation] = []
      do throws(FeatureCallError) {
        for handle in handles {
          created.append(
            try handle.slot.currentWhileHoldingInstance.successor(
              feature, limit: handle.limits.stateBytes, log: handle.log))
        }
      } catch {
        created.forEach { $0.destroy() }
        failure = error
        return
      }
      for (handle, next) in zip(handles, created) {
        let old = handle.slot.currentWhileHoldingInstance
        old.context.setSendTarget(nil)
        old.context.setNavigationTarget(nil)
        old.destroy()
        handle.connect(next)
        handle.slot.replace(with: next)
        handle.parsedActions.withValue { $0.removeAll() }
      }
    }
    if let failure { throw failure }
  }

  /// Runs `body` holding the instance lock of every handle, taken in the order given.
  static func holdingInstances(_ handles: ArraySlice<FeatureHandle>, _ body: () -> Void) {
    guard let first = handles.first else { return body() }
    first.queue.withInstance { Self.holdingInstances(handles.dropFirst(), body) }
  }
}
