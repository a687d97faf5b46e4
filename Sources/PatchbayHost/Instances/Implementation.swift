import Foundation
import Patchbay
import PatchbayABI
import PatchbayAppQueue
import PatchbayEncoding
import PatchbayLoader

/// One plugin generation's instance behind a handle: the feature, the host context the plugin
/// was given, and the instance (through ``PluginInstance``). What a swap replaces. It belongs
/// to the handle's executor: made, called and destroyed in its jobs.
package final class Implementation {
  package let feature: LoadedFeature
  package let context: HostContext
  package let instance: any PluginInstance
  /// The instance's `reduce` as a C call, for code in this process (``DirectReduce``): a send
  /// nobody watches makes it with no Swift dispatch in between.
  let directReduce: DirectReduce?

  /// Creates an instance: from the feature's initial state, or from snapshot bytes of its
  /// current schema. Throws the plugin's reason when `create` fails.
  init(feature: LoadedFeature, restoring state: [UInt8]?, context: HostContext, label: CrashLabel?)
    throws(FeatureCallError)
  {
    guard let instance = feature.code.create(state: state, context: context, label: label) else {
      throw FeatureCallError(
        featureID: feature.id, call: "create",
        reason: context.takeErrors() ?? "the plugin returned NULL without a reason"
      )
    }
    self.feature = feature
    self.context = context
    self.instance = instance
    self.directReduce = instance.directReduce
  }

  /// How many effects the last timed reduce left running (nil: not known). Effects start only
  /// in a reduce, or when a swap resumes them in a new implementation: when a reduce left none,
  /// none run at the next, and its timing need not ask the plugin. [executor]
  var runningAfterReduce: Int?

  /// The timing of a reduce about to start, when `timed` (DevTools journals the app): the tick
  /// counter and the effects running. An untimed reduce forgets the count (it may start some).
  func startTiming(_ timed: Bool) -> ReduceTiming? {
    defer { self.runningAfterReduce = nil }
    guard timed else { return nil }
    return ReduceTiming(effects: self.runningAfterReduce == 0 ? 0 : self.instance.effectCount)
  }

  /// `timing` ended: the reduce's ticks, and the effects it started.
  func endTiming(_ timing: ReduceTiming) -> ReduceTiming {
    self.runningAfterReduce = self.instance.effectCount
    return timing.ended(effects: self.runningAfterReduce)
  }

  /// The state's snapshot bytes, at most `limit` of them.
  func snapshot(limit: Int) throws(FeatureCallError) -> [UInt8] {
    let (status, bytes) = self.instance.snapshot(limit: limit)
    return try self.checked("snapshot", status, bytes, limit: limit, what: "state")
  }

  /// Right after a reduce, the record of the state fields it changed (`changed_fields`, at
  /// most `limit` bytes); nil when the plugin cannot say (then take a snapshot). [executor]
  func changedFields(limit: Int) throws(FeatureCallError) -> [UInt8]? {
    let (status, bytes) = self.instance.changedFields(limit: limit)
    if status == PB_ERR_UNSUPPORTED { return nil }
    return try self.checked("changed_fields", status, bytes, limit: limit, what: "changed state")
  }

  /// The instance's view text, at most `limit` bytes of it.
  func render(limit: Int) throws(FeatureCallError) -> String {
    let (status, bytes) = self.instance.render(limit: limit)
    let text = try self.checked("render", status, bytes, limit: limit, what: "view")
    return String(decoding: text, as: UTF8.self)
  }

  /// The bytes a writing call returned, or why it failed: over the limit, or the plugin's
  /// reason.
  private func checked(
    _ call: String, _ status: pb_status, _ bytes: [UInt8]?, limit: Int, what: String
  ) throws(FeatureCallError) -> [UInt8] {
    guard let bytes else {
      throw FeatureCallError(
        featureID: self.feature.id, call: call, reason: OutputLimits.exceeded(what, limit))
    }
    guard status == PB_OK else {
      throw FeatureCallError(
        featureID: self.feature.id, call: call,
        reason: self.context.takeErrors() ?? "status \(status.rawValue)"
      )
    }
    return bytes
  }

  /// An instance of `feature` holding this one's state, migrated when the schemas differ,
  /// with a host context like this one's.
  func successor(_ feature: LoadedFeature, limit: Int, label: CrashLabel?)
    throws(FeatureCallError) -> Implementation
  {
    var state = try self.snapshot(limit: limit)
    if feature.schemaVersion != self.feature.schemaVersion {
      state = try feature.migrate(
        from: self.feature.schemaVersion, state: state, limit: limit, context: self.context)
    }
    // The new code gets only bytes that are a value: what the old one (or migrate) wrote may
    // be anything.
    do {
      _ = try WireValue(decoding: state)
    } catch {
      throw FeatureCallError(
        featureID: self.feature.id,
        call: feature.schemaVersion != self.feature.schemaVersion ? "migrate" : "snapshot",
        reason: "the state bytes are not a value (\(error)); the new implementation was not "
          + "given them")
    }
    let context = HostContext(
      executor: self.context.executor, log: self.context.log,
      functions: self.context.resolveFunction)
    return try Implementation(feature: feature, restoring: state, context: context, label: label)
  }

  /// Whether this instance may go on running its effects after `next` replaced it: both can
  /// cancel by key, so the new code's cancellations reach it. (Whether it runs any is asked
  /// later, by ``FeatureHandle/reapRetired()``: a call into each plugin instance is what a
  /// swap's hold can least afford.)
  func canRetire(for next: Implementation) -> Bool {
    self.instance.cancelsByKey && next.instance.cancelsByKey
  }

  /// Cancels the instance's effects and frees it; its late sends are dropped. Once.
  func destroy() {
    self.context.owned.inbox = nil
    self.instance.destroy()
  }
}
