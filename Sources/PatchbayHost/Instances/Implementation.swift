import Foundation
import Patchbay
import PatchbayABI
import PatchbayEncoding
import Synchronization

/// One plugin generation's instance behind a handle: what a swap replaces.
final class Implementation: @unchecked Sendable {
  let feature: LoadedFeature
  let context: HostContext
  let host: UnsafePointer<pb_host>
  let instance: UnsafeMutableRawPointer

  init(
    feature: LoadedFeature, restoring state: [UInt8]?,
    log: @escaping @Sendable (pb_log_level, String) -> Void, functions: FunctionResolver? = nil
  ) throws(FeatureCallError) {
    let context = HostContext(log: log, functions: functions)
    let host = HostTable.make(context)
    let created: UnsafeMutableRawPointer? = CrashNote.during("create", feature.crashLabel) {
      if let state {
        state.withUnsafeBufferPointer {
          feature.vtable.create(feature.descriptor, host, $0.baseAddress ?? emptyBytes, $0.count)
        }
      } else {
        feature.vtable.create(feature.descriptor, host, nil, 0)
      }
    }
    guard let created else {
      throw FeatureCallError(
        featureID: feature.id, call: "create",
        reason: context.takeErrors() ?? "the plugin returned NULL without a reason"
      )
    }
    self.feature = feature
    self.context = context
    self.host = host
    self.instance = created
  }

  /// The state's snapshot bytes, at most `limit` of them. Call with the instance held.
  func snapshot(limit: Int) throws(FeatureCallError) -> [UInt8] {
    let (status, bytes) = CrashNote.during("snapshot", self.feature.crashLabel) {
      ByteSink.collect(limit: limit) { self.feature.vtable.snapshot(self.instance, $0) }
    }
    guard let bytes else {
      throw FeatureCallError(
        featureID: self.feature.id, call: "snapshot",
        reason: OutputLimits.exceeded("state", limit))
    }
    guard status == PB_OK else {
      throw FeatureCallError(
        featureID: self.feature.id, call: "snapshot",
        reason: self.context.takeErrors() ?? "status \(status.rawValue)"
      )
    }
    return bytes
  }

  /// An instance of `feature` holding this one's state, migrated when the schemas differ.
  /// Call with the instance held.
  func successor(
    _ feature: LoadedFeature, limit: Int,
    log: @escaping @Sendable (pb_log_level, String) -> Void
  ) throws(FeatureCallError) -> Implementation {
    var state = try self.snapshot(limit: limit)
    if feature.schemaVersion != self.feature.schemaVersion {
      state = try feature.migrate(from: self.feature.schemaVersion, state: state, limit: limit)
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
    return try Implementation(
      feature: feature, restoring: state, log: log, functions: self.context.resolveFunction)
  }

  /// Cancels the instance's effects and frees it. Call with the instance held, once.
  func destroy() {
    self.context.setSendTarget(nil)
    CrashNote.during("destroy", self.feature.crashLabel) {
      self.feature.vtable.cancel_effects(self.instance)
      self.feature.vtable.destroy(self.instance)
    }
  }
}

/// Which ``Implementation`` a handle runs. Changed only with both the instance lock (held by
/// the swapping thread) and this slot's lock held, so either lock makes a read safe: the
/// reduce path, which holds the instance lock, reads without another lock.
final class ImplementationSlot: @unchecked Sendable {
  private let lock = Mutex<Void>(())
  private var stored: Implementation

  init(_ implementation: Implementation) { self.stored = implementation }

  /// The implementation, from any thread.
  var current: Implementation { self.lock.withLock { _ in self.stored } }

  /// The implementation, for a caller that holds the instance lock.
  var currentWhileHoldingInstance: Implementation { self.stored }

  /// Installs `next`. Call with the instance lock held.
  func replace(with next: Implementation) {
    self.lock.withLock { _ in self.stored = next }
  }
}

/// A valid pointer for an empty state, so `create` can tell "restore nothing" from "no state".
nonisolated(unsafe) private let emptyBytes: UnsafePointer<UInt8> = {
  let pointer = UnsafeMutablePointer<UInt8>.allocate(capacity: 1)
  pointer.initialize(to: 0)
  return UnsafePointer(pointer)
}()

/// An instance pointer, shared with the queue that alone calls into it.
struct UncheckedPointer: @unchecked Sendable {
  let pointer: UnsafeMutableRawPointer
  init(_ pointer: UnsafeMutableRawPointer) { self.pointer = pointer }
}
