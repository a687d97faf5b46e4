import Dependencies
import PatchbayCore

/// Where a ``Shared`` value is kept, and which values are one: every `@Shared` of an equal
/// key shares one value.
public protocol SharedKey<Value>: Sendable {
  associatedtype Value
  /// The box of this key's value, made with `defaultValue` (or what the key keeps) the first
  /// time.
  func box(default defaultValue: () -> Value) -> _SharedReference<Value>
}

/// A key that keeps its value in memory, for the life of the app (in a test: of the test).
///
/// In a plugin, a `Codable` value is the app's: every plugin's `@Shared(.inMemory("tally"))`
/// is one value, each change reaching the others as a recorded action (docs/SHARED.md).
public struct InMemoryKey<Value>: SharedKey {
  public let name: String
  let storage: InMemoryStorage
  /// Makes the box: with the bridge for a `Codable` value.
  let makeBox: UncheckedBox<(InMemoryStorage, String, () -> Value) -> _SharedReference<Value>>

  public func box(default defaultValue: () -> Value) -> _SharedReference<Value> {
    self.makeBox.value(self.storage, self.name, defaultValue)
  }
}

extension SharedKey {
  /// In memory, under `name`: `@Shared(.inMemory("tempo")) var tempo = 120`.
  public static func inMemory<Value>(_ name: String) -> Self where Self == InMemoryKey<Value> {
    InMemoryKey(
      name: name, storage: .forKeys, makeBox: UncheckedBox { $0.box(named: $1, default: $2) })
  }

  /// In memory, under `name`, and in a plugin shared with every plugin of the app:
  /// `@Shared(.inMemory("tempo")) var tempo = 120`.
  public static func inMemory<Value: Codable>(_ name: String) -> Self
  where Self == InMemoryKey<Value> {
    InMemoryKey(
      name: name, storage: .forKeys,
      makeBox: UncheckedBox { $0.codableBox(named: $1, default: $2) })
  }
}

/// The in-memory values of an app, by name. Each test gets its own; each plugin instance too,
/// whose storage shares its `Codable` values through a ``_SharedBridge``.
public final class InMemoryStorage: Sendable {
  private let boxes = SharedBoxes<String>()
  /// The names whose boxes were made since a state began to be read (``beginReading()``).
  private let madeInCall = LockedValue<Set<String>>([])
  let bridge: (any _SharedBridge)?

  public init() {
    self.bridge = nil
  }

  /// A storage whose `Codable` values are held through `bridge` too.
  public init(bridge: any _SharedBridge) {
    self.bridge = bridge
  }

  /// The storage `.inMemory` keys use here: the plugin instance's on its thread, else the
  /// dependency's.
  static var forKeys: InMemoryStorage {
    if let current = Self.current { return current }
    @Dependency(\.defaultInMemoryStorage) var storage
    return storage
  }

  func box<Value>(named name: String, default defaultValue: () -> Value) -> _SharedReference<Value>
  {
    self.boxes.box(name, named: ".inMemory(\"\(name)\")") {
      SharedBox(defaultValue(), keyID: .inMemory(name))
    }.box
  }

  /// The box of a `Codable` value: held through the bridge, when there is one.
  func codableBox<Value: Codable>(named name: String, default defaultValue: () -> Value)
    -> _SharedReference<Value>
  {
    guard let bridge = self.bridge else { return self.box(named: name, default: defaultValue) }
    let (box, made) = self.boxes.box(name, named: ".inMemory(\"\(name)\")") {
      SharedBox(defaultValue(), keyID: .inMemory(name)) { [weak bridge] value in
        bridge?.changed(name, to: value)
      }
    }
    if made {
      self.madeInCall.withValue { _ = $0.insert(name) }
      // Outside the storage's lock: the bridge may hand a value straight back.
      bridge.hold(name, current: { [unowned box] in box.read() }) { [weak box] in
        box?.receive($0)
      }
    }
    return box
  }

  /// The box of a value read back from a state's bytes: made with it, or set to it when the
  /// box was made while this state was read (by the state's default, which the bytes
  /// overrule); a box from before keeps its value (the live one, when an old state is read
  /// again).
  func decodedBox<Value: Codable>(named name: String, value: Value) -> _SharedReference<Value> {
    let box = self.codableBox(named: name) { value }
    if self.madeInCall.withValue({ $0.contains(name) }), let box = box as? SharedBox<Value> {
      box.receive(value)
    }
    return box
  }

  /// A state is about to be read from bytes into this storage: no box is new in it yet.
  public func beginReading() {
    self.madeInCall.withValue { $0.removeAll() }
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
