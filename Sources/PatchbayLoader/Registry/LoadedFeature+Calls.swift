import Foundation
import Patchbay
import PatchbayABI
import PatchbayEncoding
import PatchbayFunctions

/// The calls a feature answers without an instance, with the errors they fail with.
extension LoadedFeature {
  /// Parses an action's text form, outside any app (`inspect`, tests).
  public func parseAction(_ text: String) throws(FeatureCallError) -> [UInt8] {
    try HostContext.detached { context throws(FeatureCallError) in
      try self.parseAction(text, context: context)
    }
  }

  /// Formats action bytes, outside any app.
  public func formatAction(_ bytes: [UInt8]) throws(FeatureCallError) -> String {
    try HostContext.detached { context throws(FeatureCallError) in
      try self.formatAction(bytes, context: context)
    }
  }

  /// Turns snapshot bytes of an older state schema into bytes of this feature's schema.
  public func migrate(
    from schema: UInt32, state: [UInt8], limit: Int = OutputLimits.standard.stateBytes
  ) throws(FeatureCallError) -> [UInt8] {
    try HostContext.detached { context throws(FeatureCallError) in
      try self.migrate(from: schema, state: state, limit: limit, context: context)
    }
  }

  /// ``migrate(from:state:limit:)`` on the executor that owns `context`.
  package func migrate(
    from schema: UInt32, state: [UInt8], limit: Int, context: HostContext
  ) throws(FeatureCallError) -> [UInt8] {
    guard self.migrates else {
      throw FeatureCallError(
        featureID: self.id, call: "migrate",
        reason: "the feature has no migrate function, so it cannot restore state of schema "
          + "\(schema) into schema \(self.schemaVersion)"
      )
    }
    let (status, bytes) = self.code.migrate(
      from: schema, state: state, limit: limit, context: context)
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

  /// ``parseAction(_:)`` on the executor that owns `context`.
  package func parseAction(_ text: String, context: HostContext) throws(FeatureCallError) -> [UInt8]
  {
    let (status, bytes) = self.code.parseAction(text, context: context)
    guard status == PB_OK else {
      let reason = context.takeErrors() ?? "'\(text)' is not an action of this feature."
      throw FeatureCallError(
        featureID: self.id, call: "parse_action", reason: reason + self.suggestion(for: text))
    }
    return bytes
  }

  /// " Did you mean 'increment'?" when `text` names no action of the feature and one is close.
  func suggestion(for text: String) -> String {
    let name = String(text.prefix { $0 != "(" }).trimmingCharacters(in: .whitespaces)
    let names = self.actions.map(\.name)
    guard !name.isEmpty, !names.contains(name) else { return "" }
    return PatchbayFunctions.suggestion(for: name, among: names)
  }

  /// ``formatAction(_:)`` on the executor that owns `context`.
  package func formatAction(_ action: [UInt8], context: HostContext) throws(FeatureCallError)
    -> String
  {
    let (status, bytes) = self.code.formatAction(action, context: context)
    guard status == PB_OK else {
      throw FeatureCallError(
        featureID: self.id, call: "format_action",
        reason: context.takeErrors() ?? "the bytes are not an action of this feature"
      )
    }
    return String(decoding: bytes, as: UTF8.self)
  }
}
