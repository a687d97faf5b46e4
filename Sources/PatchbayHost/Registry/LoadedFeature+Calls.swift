import Foundation
import Patchbay
import PatchbayABI
import PatchbayEncoding
import Synchronization

extension LoadedFeature {
  /// Parses an action's text form with a throwaway host table.
  public func parseAction(_ text: String) throws(FeatureCallError) -> [UInt8] {
    let context = HostContext { _, _ in }
    return try self.parseAction(text, context: context, host: HostTable.make(context))
  }

  /// Formats action bytes with a throwaway host table.
  public func formatAction(_ bytes: [UInt8]) throws(FeatureCallError) -> String {
    let context = HostContext { _, _ in }
    return try self.formatAction(bytes, context: context, host: HostTable.make(context))
  }

  /// Turns snapshot bytes of an older state schema into bytes of this feature's schema.
  public func migrate(
    from schema: UInt32, state: [UInt8], limit: Int = OutputLimits.standard.stateBytes
  ) throws(FeatureCallError) -> [UInt8] {
    guard let migrate = self.vtable.migrate else {
      throw FeatureCallError(
        featureID: self.id, call: "migrate",
        reason: "the feature has no migrate function, so it cannot restore state of schema "
          + "\(schema) into schema \(self.schemaVersion)"
      )
    }
    let context = HostContext { _, _ in }
    let host = HostTable.make(context)
    let (status, bytes) = CrashNote.during("migrate", self.crashLabel) {
      ByteSink.collect(limit: limit) { out in
        state.withUnsafeBufferPointer {
          migrate(self.descriptor, host, schema, $0.baseAddress, $0.count, out)
        }
      }
    }
    guard let bytes else {
      throw FeatureCallError(
        featureID: self.id, call: "migrate", reason: OutputLimits.exceeded("state", limit))
    }
    guard status == PB_OK else {
      throw FeatureCallError(
        featureID: self.id, call: "migrate",
        reason: context.takeErrors() ?? "status \(status.rawValue)"
      )
    }
    return bytes
  }

  func parseAction(
    _ text: String, context: HostContext, host: UnsafePointer<pb_host>
  ) throws(FeatureCallError) -> [UInt8] {
    let (status, bytes) = CrashNote.during("parse_action", self.crashLabel) {
      ByteSink.collect { out in
        Array(text.utf8).withUnsafeBufferPointer { buffer in
          buffer.withMemoryRebound(to: CChar.self) {
            self.vtable.parse_action(self.descriptor, host, $0.baseAddress, $0.count, out)
          }
        }
      }
    }
    guard status == PB_OK else {
      throw FeatureCallError(
        featureID: self.id, call: "parse_action",
        reason: context.takeErrors() ?? "'\(text)' is not an action of this feature"
      )
    }
    return bytes
  }

  func formatAction(
    _ action: [UInt8], context: HostContext, host: UnsafePointer<pb_host>
  ) throws(FeatureCallError) -> String {
    let (status, bytes) = CrashNote.during("format_action", self.crashLabel) {
      ByteSink.collect { out in
        action.withUnsafeBufferPointer {
          self.vtable.format_action(self.descriptor, host, $0.baseAddress, $0.count, out)
        }
      }
    }
    guard status == PB_OK else {
      throw FeatureCallError(
        featureID: self.id, call: "format_action",
        reason: context.takeErrors() ?? "the bytes are not an action of this feature"
      )
    }
    return String(decoding: bytes, as: UTF8.self)
  }
}
