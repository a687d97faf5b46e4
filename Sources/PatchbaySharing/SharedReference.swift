import PatchbayCore

/// Where a ``Shared`` value lives: the one box behind every `@Shared` of a key, or a part of
/// another reference's value (`$settings.volume`).
///
/// A test's ``SharedChangeTracker`` keeps, for each box an action changed, the value before
/// the action: what the test's expected state reads and changes, while the store's state
/// reads the box.
public class _SharedReference<Value>: @unchecked Sendable {
  /// The box the value lives in, which tracking is keyed by.
  var root: AnyObject { fatalError("abstract") }
  /// The key of the box, which a plugin's state keeps with the value; nil for a value no key
  /// keeps and for a part of one.
  var keyID: SharedKeyID? { nil }
  func read() -> Value { fatalError("abstract") }
  func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R { fatalError("abstract") }
  /// The value in the expected state of `tracker`, if an action changed it since.
  func snapshot(in tracker: SharedChangeTracker) -> Value? { fatalError("abstract") }
  func modifySnapshot<R>(in tracker: SharedChangeTracker, _ body: (inout Value) throws -> R)
    rethrows -> R
  { fatalError("abstract") }
}

/// The box of one key's value; `save` keeps it where the key says (a file), after each change.
final class SharedBox<Value>: _SharedReference<Value>, @unchecked Sendable {
  private let value: LockedValue<Value>
  private let save: ((Value) -> Void)?
  private let key: SharedKeyID?

  init(_ value: Value, keyID: SharedKeyID? = nil, save: ((Value) -> Void)? = nil) {
    self.value = LockedValue(value)
    self.key = keyID
    self.save = save
  }

  override var root: AnyObject { self }
  override var keyID: SharedKeyID? { self.key }

  /// Takes a value another holder wrote (through a ``_SharedBridge``): not a change of this
  /// holder's, so it is not saved or told back.
  func receive(_ value: Value) {
    self.value.withValue { $0 = value }
  }

  override func read() -> Value {
    self.value.value
  }

  override func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
    // Saved under the lock: two changes in a row reach the file in their order.
    try self.value.withValue { value in
      SharedChangeTracker.current?.keep(value, of: self)
      let result = try body(&value)
      self.save?(value)
      return result
    }
  }

  override func snapshot(in tracker: SharedChangeTracker) -> Value? {
    tracker.kept(of: self)
  }

  override func modifySnapshot<R>(
    in tracker: SharedChangeTracker, _ body: (inout Value) throws -> R
  ) rethrows -> R {
    var value = tracker.kept(of: self) ?? self.read()
    defer { tracker.replace(value, of: self) }
    return try body(&value)
  }
}

/// A part of another reference's value, reached by a key path: `Shared($settings.volume)`.
final class SharedMember<Root, Value>: _SharedReference<Value>, @unchecked Sendable {
  let base: _SharedReference<Root>
  let keyPath: WritableKeyPath<Root, Value>

  init(_ base: _SharedReference<Root>, _ keyPath: WritableKeyPath<Root, Value>) {
    self.base = base
    self.keyPath = keyPath
  }

  override var root: AnyObject { self.base.root }
  override func read() -> Value { self.base.read()[keyPath: self.keyPath] }

  override func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
    try self.base.withLock { try body(&$0[keyPath: self.keyPath]) }
  }

  override func snapshot(in tracker: SharedChangeTracker) -> Value? {
    self.base.snapshot(in: tracker)?[keyPath: self.keyPath]
  }

  override func modifySnapshot<R>(
    in tracker: SharedChangeTracker, _ body: (inout Value) throws -> R
  ) rethrows -> R {
    try self.base.modifySnapshot(in: tracker) { try body(&$0[keyPath: self.keyPath]) }
  }
}
