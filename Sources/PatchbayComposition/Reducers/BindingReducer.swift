import CasePaths
import PatchbayCore

/// Applies binding actions to the state: each `.binding(.set(\.field, value))` sets `field`.
///
/// ```swift
/// var body: some ReducerOf<Self> {
///   BindingReducer()
///   Reduce { state, action in
///     switch action {
///     case .binding(\.query):
///       return .send(.search)  // react to one field after it changed
///     case .binding:
///       return .none
///     …
///     }
///   }
/// }
/// ```
///
/// Put it before the reducers that react to the new values. For binding actions nested in a
/// view action (`case view(View)` with `View: BindableAction`), pass the path:
/// `BindingReducer(action: \.view)`.
public struct BindingReducer<State, Action, ViewAction: BindableAction>: Reducer
where State == ViewAction.State {
  @usableFromInline let toViewAction: (Action) -> ViewAction?

  /// Applies the binding actions of the feature's own action.
  @inlinable
  public init() where Action == ViewAction {
    self.toViewAction = { $0 }
  }

  /// Applies the binding actions found at `toViewAction`.
  @inlinable
  public init(action toViewAction: CaseKeyPath<Action, ViewAction>) where Action: CasePathable {
    self.toViewAction = { $0[case: toViewAction] }
  }

  @inlinable
  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    guard let binding = self.toViewAction(action)?.binding else { return .none }
    binding.set(&state)
    return .none
  }
}
