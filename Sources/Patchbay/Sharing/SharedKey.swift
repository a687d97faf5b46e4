import Dependencies

/// Where a ``Shared`` value is kept, and which values are one: every `@Shared` of an equal
/// key shares one value.
public protocol SharedKey<Value>: Sendable {
  associatedtype Value
  /// The box of this key's value, made with `defaultValue` (or what the key keeps) the first
  /// time.
  func box(default defaultValue: () -> Value) -> _SharedReference<Value>
}

/// A key that keeps its value in memory, for the life of the app (in a test: of the test).
public struct InMemoryKey<Value>: SharedKey {
  public let name: String
  let storage: InMemoryStorage

  public func box(default defaultValue: () -> Value) -> _SharedReference<Value> {
    self.storage.box(named: self.name, default: defaultValue)
  }
}

extension SharedKey {
  /// In memory, under `name`: `@Shared(.inMemory("tempo")) var tempo = 120`.
  public static func inMemory<Value>(_ name: String) -> Self where Self == InMemoryKey<Value> {
    @Dependency(\.defaultInMemoryStorage) var storage
    return InMemoryKey(name: name, storage: storage)
  }
}

/// The in-memory values of an app, by name. Each test gets its own.
public final class InMemoryStorage: Sendable {
  private let boxes = LockedValue<[String: AnyObject]>([:])

  public init() {}

  func box<Value>(named name: String, default defaultValue: () -> Value) -> _SharedReference<Value>
  {
    self.boxes.withValue { boxes in
      if let box = boxes[name] as? SharedBox<Value> { return box }
      let box = SharedBox(defaultValue())
      boxes[name] = box
      return box
    }
  }
}

private enum InMemoryStorageKey: DependencyKey {
  static let liveValue = InMemoryStorage()
  static var testValue: InMemoryStorage { InMemoryStorage() }
}

extension DependencyValues {
  /// Where `.inMemory` keys keep their values: one storage for the app, a new one per test.
  public var defaultInMemoryStorage: InMemoryStorage {
    get { self[InMemoryStorageKey.self] }
    set { self[InMemoryStorageKey.self] = newValue }
  }
}
