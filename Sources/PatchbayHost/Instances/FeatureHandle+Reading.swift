import Patchbay
import PatchbayABI
import PatchbayEncoding
import PatchbayLoader

/// Reading an instance: its actions' text forms, its state, what it shows; and cancelling
/// its effects.
extension FeatureHandle {
  /// The encoding of an action's text form.
  public func parseAction(_ text: String) throws(FeatureCallError) -> [UInt8] {
    try self.executor.sync { () throws(FeatureCallError) in
      if let bytes = self.owned.parsedActions.bytes(for: text) { return bytes }
      let implementation = self.owned.implementation
      let bytes = try implementation.feature.parseAction(text, context: implementation.context)
      self.owned.parsedActions.insert(bytes, for: text)
      return bytes
    }
  }

  /// The text form of encoded action bytes.
  public func formatAction(_ bytes: [UInt8]) throws(FeatureCallError) -> String {
    try self.executor.sync { () throws(FeatureCallError) in
      let implementation = self.owned.implementation
      return try implementation.feature.formatAction(bytes, context: implementation.context)
    }
  }

  /// The state's snapshot bytes (value encoding), at most `[limits] state-bytes` of them.
  public func snapshot() throws(FeatureCallError) -> [UInt8] {
    try self.executor.sync { () throws(FeatureCallError) in
      try self.owned.implementation.snapshot(limit: self.limits.stateBytes)
    }
  }

  /// The state as a value.
  public func stateValue() throws(FeatureCallError) -> WireValue {
    let bytes = try self.snapshot()
    do {
      return try WireValue(decoding: bytes)
    } catch {
      throw FeatureCallError(
        featureID: self.feature.id, call: "snapshot",
        reason: "the plugin wrote bytes that are not a value: \(error)"
      )
    }
  }

  /// The state as JSON.
  public func stateJSON(pretty: Bool = false) throws(FeatureCallError) -> String {
    try self.stateValue().json(pretty: pretty)
  }

  /// The instance's view text, at most `[limits] view-bytes` of it.
  public func render() throws(FeatureCallError) -> String {
    try self.executor.sync { () throws(FeatureCallError) in
      try self.owned.implementation.render(limit: self.limits.viewBytes)
    }
  }

  /// Cancels the instance's effects, and those its earlier generations still run; the state
  /// is kept.
  public func cancelEffects() {
    self.executor.sync {
      self.owned.retired.forEach { $0.destroy() }
      self.owned.retired.removeAll()
      self.reapRetired()
      self.owned.implementation.instance.cancelEffects()
    }
  }
}
