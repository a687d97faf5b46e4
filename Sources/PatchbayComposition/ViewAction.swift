import PatchbayCore

/// An action enum whose view's actions live in one case, `case view(View)`, as TCA's
/// `@ViewAction` pattern writes it.
///
/// ```swift
/// enum Action: ViewAction {
///   case view(View)
///   case response(Int)
///
///   enum View: BindableAction {
///     case binding(BindingAction<State>)
///     case saveTapped
///   }
/// }
///
/// var body: some ReducerOf<Self> {
///   BindingReducer(action: \.view)
///   Reduce { state, action in … }
/// }
/// ```
///
/// Patchbay has no views, so nothing sends through this protocol; it is here so such action
/// enums compile unchanged, and tests send `.view(.saveTapped)` as TCA's do.
public protocol ViewAction<ViewAction> {
  /// The view's actions.
  associatedtype ViewAction

  /// Wraps a view action: the enum's `view` case.
  static func view(_ action: ViewAction) -> Self
}
