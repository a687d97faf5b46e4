import PatchbayCore

/// A key with its default value, so a declaration needs none (swift-sharing's
/// `SharedKey.Default`):
///
/// ```swift
/// extension SharedKey where Self == InMemoryKey<Stats>.Default {
///   static var stats: Self { Self[.inMemory("stats"), default: Stats()] }
/// }
/// @Shared(.stats) var stats   // Stats() until something changes it
/// ```
public struct _SharedKeyDefault<Base: SharedKey>: SharedKey {
  let base: Base
  let defaultValue: UncheckedBox<() -> Base.Value>

  /// The box of the base key, made with this key's default (a default given at the
  /// declaration, `@Shared(.stats) var stats = Stats()`, is used instead).
  public func box(default defaultValue: () -> Base.Value) -> _SharedReference<Base.Value> {
    self.base.box(default: defaultValue)
  }
}

extension SharedKey {
  public typealias Default = _SharedKeyDefault<Self>
}

extension _SharedKeyDefault {
  /// `key`, with `value` as the value until something changes it: `Self[.inMemory("stats"),
  /// default: Stats()]`.
  public static subscript(_ key: Base, default value: @autoclosure @escaping () -> Base.Value)
    -> Self
  {
    Self(base: key, defaultValue: UncheckedBox(value))
  }
}

extension Shared {
  /// The value of a key with a default: `@Shared(.stats) var stats`.
  public init<Base: SharedKey>(_ key: _SharedKeyDefault<Base>) where Base.Value == Value {
    self.init(reference: key.base.box(default: key.defaultValue.value))
  }
}

extension SharedReader {
  /// The value of a key with a default: `@SharedReader(.stats) var stats`.
  public init<Base: SharedKey>(_ key: _SharedKeyDefault<Base>) where Base.Value == Value {
    self.init(Shared(key))
  }
}
