import PatchbayEncoding

/// The start value of a struct inside a feature's state, by type: what a field added to it
/// takes when a snapshot of an earlier build is read (docs/SWAP.md, "State across a swap").
///
/// ```swift
/// static let stateTemplates = [StateTemplate(State.Lap.self) { State.Lap() }]
/// // a snapshot's laps [{number: 1}] read by a Lap with `var split = 0`: [{number: 1, split: 0}]
/// ```
///
/// `@Feature` writes the list for the structs declared inside the feature.
public struct StateTemplate: Sendable {
  let type: ObjectIdentifier
  /// The start value, encoded; nil when it does not encode (then it fills nothing).
  let value: WireValue?

  public init<T: Encodable>(_ type: T.Type, _ make: () -> T) {
    self.type = ObjectIdentifier(type)
    self.value = try? WireValueEncoder().encode(make())
  }
}
