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

extension InMemoryStorage {
  /// The storage of the plugin instance running on this thread, which `.inMemory` uses before
  /// the `defaultInMemoryStorage` dependency: set around each call into an instance, at the
  /// cost of a thread-local store (no task-local push per action).
  ///
  /// ```swift
  /// InMemoryStorage.withCurrent(instanceStorage) { Feature.State() }  // its @Shared hold here
  /// ```
  public static func withCurrent<T>(_ storage: InMemoryStorage, _ body: () throws -> T) rethrows
    -> T
  {
    let previous = pthread_getspecific(Self.slot)
    pthread_setspecific(Self.slot, Unmanaged.passUnretained(storage).toOpaque())
    defer { pthread_setspecific(Self.slot, previous) }
    return try body()
  }

  /// The storage set by ``withCurrent(_:_:)`` on this thread, if any.
  static var current: InMemoryStorage? {
    pthread_getspecific(Self.slot).map {
      Unmanaged<InMemoryStorage>.fromOpaque($0).takeUnretainedValue()
    }
  }

  private static let slot: pthread_key_t = {
    var key = pthread_key_t()
    pthread_key_create(&key, nil)
    return key
  }()
}
