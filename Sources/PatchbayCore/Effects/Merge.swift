extension Effect {
  /// Runs effects at the same time.
  ///
  /// ```swift
  /// return .merge(.send(.delegate(.saved)), .run { _ in await analytics.track("save") })
  /// ```
  @inlinable
  public static func merge(_ effects: Self...) -> Self {
    .merge(effects)
  }

  /// Runs a sequence of effects at the same time.
  @inlinable
  public static func merge(_ effects: some Sequence<Self>) -> Self {
    effects.reduce(.none) { $0.merge(with: $1) }
  }

  /// This effect and `other` at the same time.
  @inlinable
  public func merge(with other: Self) -> Self {
    switch (self.operation, other.operation) {
    case (.none, _):
      return other
    case (_, .none):
      return self
    case (.merge(let lhs), .merge(let rhs)):
      return Self(.merge(lhs + rhs))
    case (.merge(let lhs), _):
      return Self(.merge(lhs + [other]))
    case (_, .merge(let rhs)):
      return Self(.merge([self] + rhs))
    default:
      return Self(.merge([self, other]))
    }
  }
}

extension Effect {
  /// Runs effects one after another: each starts when the one before has finished.
  ///
  /// ```swift
  /// return .concatenate(
  ///   .run { send in await send(.saved(try await db.save(item))) },
  ///   .send(.delegate(.didSave))
  /// )
  /// ```
  @inlinable
  public static func concatenate(_ effects: Self...) -> Self {
    .concatenate(effects)
  }

  /// Runs a sequence of effects one after another.
  @inlinable
  public static func concatenate(_ effects: some Collection<Self>) -> Self {
    effects.reduce(.none) { $0.concatenate(with: $1) }
  }

  /// This effect, then `next` once this one has finished.
  @inlinable
  public func concatenate(with next: Self) -> Self {
    switch (self.operation, next.operation) {
    case (.none, _):
      return next
    case (_, .none):
      return self
    case (.concatenate(let lhs), .concatenate(let rhs)):
      return Self(.concatenate(lhs + rhs))
    case (.concatenate(let lhs), _):
      return Self(.concatenate(lhs + [next]))
    case (_, .concatenate(let rhs)):
      return Self(.concatenate([self] + rhs))
    default:
      return Self(.concatenate([self, next]))
    }
  }
}
