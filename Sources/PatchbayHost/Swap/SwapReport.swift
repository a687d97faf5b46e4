import Foundation
import Patchbay
import PatchbayABI
import PatchbayEncoding

/// What a swap did: which feature, from which plugin file to which, and how long it took.
public struct SwapReport: Sendable, Equatable, CustomStringConvertible {
  public let featureID: String
  /// The plugin file that implemented the feature before, and the one that does now.
  public let from: String
  public let to: String
  /// The new plugin's generation (how many times this process loaded that file).
  public let generation: Int
  public let fromSchema: UInt32
  public let toSchema: UInt32
  /// The instances now running the new code.
  public let instances: [String]
  /// The whole swap, loading the plugin included.
  public let duration: Duration
  /// How long the app held its actions: the one job that switches every instance to its
  /// successor, the pause the app sees. Loading, and making the successors (snapshot →
  /// migrate → create), happen before, while the old code still runs (docs/SWAP.md).
  public let held: Duration
  /// Whether the app swapped back to the code before, the new code having failed on
  /// probation (`[limits] rollback-actions`, `rollback-seconds`).
  public var isRollback = false

  public var description: String {
    let file = { (path: String) in path.split(separator: "/").last.map(String.init) ?? path }
    let milliseconds = { (duration: Duration) in
      Double(duration.components.attoseconds) / 1e15 + Double(duration.components.seconds) * 1e3
    }
    return
      "\(self.featureID): \(file(self.from)) → \(file(self.to)) (generation \(self.generation))"
      + (self.fromSchema == self.toSchema
        ? "" : ", state schema \(self.fromSchema) → \(self.toSchema)")
      + ", \(self.instances.count) instance(s)"
      + (self.instances.isEmpty ? "" : " (\(self.instances.joined(separator: ", ")))")
      + String(
        format: ", %.1f ms (actions held %.2f ms)", milliseconds(self.duration),
        milliseconds(self.held))
  }
}
