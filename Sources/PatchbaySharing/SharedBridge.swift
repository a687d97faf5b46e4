import CPatchbaySharingSlot
import PatchbayCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where an ``InMemoryStorage`` tells the world about its `Codable` values, so that
/// `@Shared(.inMemory("tally"))` is one value across every plugin of an app: a plugin's
/// instance gives its storage a bridge to the host's shared-state service, which orders the
/// changes on the app queue and hands each one to the other holders as an action.
///
/// A store in a test has no bridge: its in-memory values are its own, as in TCA.
public protocol _SharedBridge: AnyObject, Sendable {
  /// The storage made the box of `name`: hold it, with its value as `current` reads it (at
  /// the end of the call that made it: a state read back sets it after its default did), and
  /// from now on give values others write to `receive`.
  func hold<Value: Codable>(
    _ name: String, current: @escaping () -> Value, receive: @escaping (Value) -> Void)
  /// A holder here changed the value of `name`.
  func changed<Value: Codable>(_ name: String, to value: Value)
}

/// Where the storage of a plugin instance comes from: made the first time its code uses
/// `.inMemory`, since most features never do (an instance of a feature without `@Shared`
/// costs no storage at all).
///
/// ```swift
/// final class Instance: _InMemoryStorageSource {
///   override func makeStorage() -> InMemoryStorage { InMemoryStorage(bridge: holding) }
/// }
/// InMemoryStorage.withCurrent(instance) { Feature.State() }  // its @Shared hold here
/// ```
///
/// Not locked: it is used on the thread of a call into its instance, and the host makes one
/// call into an instance at a time.
open class _InMemoryStorageSource: @unchecked Sendable {
  /// The storage, once made.
  @exclusivity(unchecked) public private(set) final var made: InMemoryStorage?

  public init() {}

  /// Makes the storage, the first time it is used.
  open func makeStorage() -> InMemoryStorage {
    InMemoryStorage()
  }

  /// The storage: made now if it was not yet.
  public final var storage: InMemoryStorage {
    if let made = self.made { return made }
    let storage = self.makeStorage()
    self.made = storage
    return storage
  }
}

/// The source of a storage that exists already.
private final class MadeStorage: _InMemoryStorageSource, @unchecked Sendable {
  let given: InMemoryStorage
  init(_ given: InMemoryStorage) { self.given = given }
  override func makeStorage() -> InMemoryStorage { self.given }
}

extension InMemoryStorage {
  /// The storage of the plugin instance running on this thread, which `.inMemory` uses before
  /// the `defaultInMemoryStorage` dependency: set around each call into an instance, at the
  /// cost of two thread-local stores (`pb_set_sharing_slot`; no task-local push per action).
  ///
  /// ```swift
  /// InMemoryStorage.withCurrent(instanceStorage) { Feature.State() }  // its @Shared hold here
  /// ```
  public static func withCurrent<T>(_ storage: InMemoryStorage, _ body: () throws -> T) rethrows
    -> T
  {
    try Self.withCurrent(MadeStorage(storage), body)
  }

  /// ``withCurrent(_:_:)`` with a storage made only if `body` uses one.
  public static func withCurrent<T>(_ source: _InMemoryStorageSource, _ body: () throws -> T)
    rethrows -> T
  {
    let previous = Self.enterCurrent(source)
    defer { Self.leaveCurrent(previous) }
    return try body()
  }

  /// ``withCurrent(_:_:)`` in two halves, for a call that cannot afford a closure and a
  /// generic call (a plugin's reduce): `enterCurrent` makes `source` current and returns what
  /// was, which `leaveCurrent` puts back.
  ///
  /// ```swift
  /// let previous = InMemoryStorage.enterCurrent(instance)
  /// defer { InMemoryStorage.leaveCurrent(previous) }
  /// ```
  public static func enterCurrent(_ source: _InMemoryStorageSource) -> UnsafeRawPointer? {
    let previous = pb_sharing_slot()
    pb_set_sharing_slot(Unmanaged.passUnretained(source).toOpaque())
    return previous
  }

  /// Ends what ``enterCurrent(_:)`` began: `previous` is current again.
  public static func leaveCurrent(_ previous: UnsafeRawPointer?) {
    pb_set_sharing_slot(previous)
  }

  /// The storage set by ``withCurrent(_:_:)`` on this thread, if any: made now if it was not.
  static var current: InMemoryStorage? {
    pb_sharing_slot().map {
      Unmanaged<_InMemoryStorageSource>.fromOpaque($0).takeUnretainedValue().storage
    }
  }
}
