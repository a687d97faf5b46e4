import PatchbayCore

/// What a test store knows of shared values: for each box an action changed, its value
/// before the action, until the test asserts the change.
///
/// While a test store reduces, it is ``current``: each change to a shared value keeps the
/// value it had before. While the store checks the test's expected state, it is
/// ``asserting``: reading a shared value of the expected state gives the kept value, and
/// `withLock` in the `assert` closure changes the kept value. The expected and actual
/// states then differ where a change was not asserted, and the test fails, as in TCA.
public final class SharedChangeTracker: @unchecked Sendable {
  @TaskLocal public static var current: SharedChangeTracker?
  @TaskLocal public static var asserting: SharedChangeTracker?

  private let values = LockedValue<[ObjectIdentifier: (box: AnyObject, value: Any)]>([:])

  public init() {}

  /// Keeps `value` as the value of `box` before the change, unless one is kept already.
  func keep<Value>(_ value: Value, of box: SharedBox<Value>) {
    self.values.withValue { values in
      let id = ObjectIdentifier(box)
      if values[id] == nil { values[id] = (box, value) }
    }
  }

  func kept<Value>(of box: SharedBox<Value>) -> Value? {
    self.values.withValue { $0[ObjectIdentifier(box)]?.value as? Value }
  }

  func replace<Value>(_ value: Value, of box: SharedBox<Value>) {
    self.values.withValue { $0[ObjectIdentifier(box)] = (box, value) }
  }

  /// Whether any shared value changed since the last ``reset()``.
  public var hasChanges: Bool { self.values.withValue { !$0.isEmpty } }

  /// Forgets the kept values: the changes are asserted.
  public func reset() {
    self.values.withValue { $0.removeAll() }
  }
}
