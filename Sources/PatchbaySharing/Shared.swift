import CustomDump
import Dependencies
import PatchbayCore

/// A value several features share by reference (swift-sharing's `@Shared`): a change made by
/// one is seen by all, and a key keeps it somewhere (in memory, in a file).
///
/// ```swift
/// @ObservableState struct State: Equatable {
///   @Shared(.inMemory("tempo")) var tempo = 120
/// }
/// // in the reducer:
/// state.$tempo.withLock { $0 += 1 }
/// // in a test, the change is asserted like any other:
/// await store.send(.faster) { $0.$tempo.withLock { $0 = 121 } }
/// ```
///
/// Read it as a plain value (`state.tempo`); change it with `withLock`. A part of a shared
/// value is shared too: `Shared(state.$settings.volume)`.
@propertyWrapper
@dynamicMemberLookup
public struct Shared<Value> {
  let reference: _SharedReference<Value>

  init(reference: _SharedReference<Value>) {
    self.reference = reference
  }

  /// A shared value that no key keeps: shared by whoever is given this `Shared`.
  public init(value: Value) {
    self.init(reference: SharedBox(value))
  }

  /// The value `key` keeps, or `defaultValue` when it keeps none yet.
  public init(wrappedValue defaultValue: @autoclosure () -> Value, _ key: some SharedKey<Value>) {
    self.init(reference: key.box(default: defaultValue))
  }

  /// The value `key` keeps, which must exist.
  public init(_ key: some SharedKey<Value>) where Value: ExpressibleByNilLiteral {
    self.init(wrappedValue: nil, key)
  }

  /// Another `Shared` of the same value: `@Shared var count: Int` set from a parent's
  /// `$count`.
  public init(_ other: Shared<Value>) {
    self = other
  }

  /// The value now (in a test's `assert` closure: the value the test expects).
  public var wrappedValue: Value {
    if let tracker = SharedChangeTracker.asserting,
      let expected = self.reference.snapshot(in: tracker)
    {
      return expected
    }
    return self.reference.read()
  }

  public var projectedValue: Shared<Value> {
    get { self }
    set { self = newValue }
  }

  /// Changes the value, atomically: every holder sees the change.
  public func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
    if let tracker = SharedChangeTracker.asserting {
      return try self.reference.modifySnapshot(in: tracker, body)
    }
    return try self.reference.withLock(body)
  }

  /// A part of the value, shared too: `$settings.volume`.
  public subscript<Member>(dynamicMember keyPath: WritableKeyPath<Value, Member>)
    -> Shared<Member>
  {
    Shared<Member>(reference: SharedMember(self.reference, keyPath))
  }
}

extension Shared: @unchecked Sendable where Value: Sendable {}

extension Shared: Equatable where Value: Equatable {
  /// Two holders of one value are equal when, in a test, the expected value (left) is the
  /// value now (right); else when their values are.
  public static func == (lhs: Self, rhs: Self) -> Bool {
    if lhs.reference.root === rhs.reference.root, let tracker = SharedChangeTracker.asserting {
      return (lhs.reference.snapshot(in: tracker) ?? lhs.reference.read()) == rhs.reference.read()
    }
    return lhs.wrappedValue == rhs.wrappedValue
  }
}

extension Shared: CustomDumpRepresentable {
  public var customDumpValue: Any { self.wrappedValue }
}

extension Shared: CustomStringConvertible {
  public var description: String { "Shared(\(self.wrappedValue))" }
}

/// A shared value this feature only reads (swift-sharing's `@SharedReader`).
///
/// ```swift
/// @SharedReader(.inMemory("tempo")) var tempo = 120
/// ```
@propertyWrapper
public struct SharedReader<Value> {
  let shared: Shared<Value>

  public init(_ shared: Shared<Value>) {
    self.shared = shared
  }

  public init(value: Value) {
    self.shared = Shared(value: value)
  }

  public init(wrappedValue defaultValue: @autoclosure () -> Value, _ key: some SharedKey<Value>) {
    self.shared = Shared(wrappedValue: defaultValue(), key)
  }

  public var wrappedValue: Value { self.shared.wrappedValue }
  public var projectedValue: SharedReader<Value> { self }
}

extension SharedReader: @unchecked Sendable where Value: Sendable {}

extension SharedReader: Equatable where Value: Equatable {
  public static func == (lhs: Self, rhs: Self) -> Bool { lhs.shared == rhs.shared }
}

extension SharedReader: CustomDumpRepresentable {
  public var customDumpValue: Any { self.wrappedValue }
}
