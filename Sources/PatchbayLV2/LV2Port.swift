/// One port of an LV2 plugin, as its Turtle describes it.
///
/// ```swift
/// let gain = plugin.ports.first { $0.symbol == "gain" }!
/// gain.kind        // .control
/// gain.range       // -20...20, default 0
/// ```
public struct LV2Port: Sendable, Equatable, CustomStringConvertible {
  public enum Kind: String, Sendable, Equatable {
    case audio, control, atom, cv, other
  }

  public let index: Int
  public let symbol: String
  public let name: String
  public let kind: Kind
  public let isInput: Bool
  /// A control port's default, and its bounds (NaN where the plugin gives none).
  public let defaultValue: Float
  public let minimum: Float
  public let maximum: Float
  /// An atom port that takes or sends MIDI events.
  public let carriesMIDI: Bool

  public var description: String {
    let direction = self.isInput ? "in" : "out"
    switch self.kind {
    case .control:
      return "\(self.index) \(self.symbol) (control \(direction), \(self.minimum)…\(self.maximum), "
        + "default \(self.defaultValue)): \(self.name)"
    default:
      return "\(self.index) \(self.symbol) (\(self.kind.rawValue) \(direction)"
        + (self.carriesMIDI ? ", MIDI" : "") + "): \(self.name)"
    }
  }

  /// A control value clamped to the port's bounds (the bounds it has).
  public func clamped(_ value: Float) -> Float {
    var value = value
    if !self.minimum.isNaN { value = max(value, self.minimum) }
    if !self.maximum.isNaN { value = min(value, self.maximum) }
    return value
  }
}
