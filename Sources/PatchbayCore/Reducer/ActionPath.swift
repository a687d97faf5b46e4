import CasePaths

/// A path to one case of a `@CasePathable` enum, written as a key path literal: `\.child`.
///
/// Composition operators take it where TCA takes a `CaseKeyPath`. Both are written the same
/// way; this one resolves to the enum's generated case accessor, so extracting and embedding
/// an action is a direct function call with no boxing (the ``Scope`` hot path). Every operator
/// also accepts a `CaseKeyPath`, for chained paths such as `\.destination.settings`.
public typealias ActionPath<Root: CasePathable, Value> = KeyPath<
  Root.AllCasePaths, AnyCasePath<Root, Value>
>

extension CasePathable {
  /// The embed/extract pair an ``ActionPath`` names.
  @inlinable
  package static func casePath<Value>(_ path: ActionPath<Self, Value>) -> AnyCasePath<Self, Value> {
    Self.allCasePaths[keyPath: path]
  }
}
