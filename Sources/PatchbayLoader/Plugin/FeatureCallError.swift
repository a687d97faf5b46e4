/// A call into a feature that failed: which feature, which call, and the plugin's reason.
public struct FeatureCallError: Error, Equatable, CustomStringConvertible {
  public let featureID: String
  public let call: String
  public let reason: String

  public init(featureID: String, call: String, reason: String) {
    self.featureID = featureID
    self.call = call
    self.reason = reason
  }

  public var description: String { "\(self.featureID): \(self.call) failed: \(self.reason)" }
}
