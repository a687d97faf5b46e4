/// How much of what happens a ``TestStore`` makes you assert.
public enum Exhaustivity: Equatable, Sendable {
  /// Every state change, every received action and every running effect must be asserted
  /// (the default): nothing happens in the feature that the test does not describe.
  case on
  /// Only what the test asserts is checked; unasserted changes and actions are skipped. Use it
  /// for integration tests of large features. With `showSkippedAssertions`, what was skipped
  /// is reported as an expected issue, for reading.
  case off(showSkippedAssertions: Bool)

  /// Non-exhaustive, without listing what was skipped.
  public static let off = Self.off(showSkippedAssertions: false)
}
