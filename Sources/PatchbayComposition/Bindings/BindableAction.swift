import CasePaths
import PatchbayCore

/// An action enum with a case for binding actions: `case binding(BindingAction<State>)`.
///
/// ```swift
/// enum Action: BindableAction {
///   case binding(BindingAction<State>)
///   case saveTapped
/// }
/// ```
///
/// The `binding(_:)` requirement is met by the enum case itself; ``BindingReducer`` applies
/// the actions.
///
/// > Important: Its metatype is `Sendable` (`SendableMetatype`): the default `binding` reads
/// > the case through a `Sendable` case path that calls `Self.binding(_:)`. An action enum
/// > meets it as long as its conformance is not isolated to a global actor.
public protocol BindableAction<State>: SendableMetatype {
  /// The state the binding actions set.
  associatedtype State

  /// Wraps a binding action: the enum's `binding` case.
  static func binding(_ action: BindingAction<State>) -> Self

  /// The binding action this action wraps, if it is one.
  var binding: BindingAction<State>? { get }
}

extension BindableAction {
  public var binding: BindingAction<State>? {
    AnyCasePath(unsafe: { .binding($0) }).extract(from: self)
  }
}
