import CasePaths

/// Runs a child reducer on a part of the parent's state, for the parent's actions that carry
/// a child action.
///
/// ```swift
/// struct App: Reducer {
///   struct State { var settings = Settings.State() }
///   @CasePathable enum Action { case settings(Settings.Action) }
///
///   var body: some Reducer<State, Action> {
///     Scope(state: \.settings, action: \.settings) { Settings() }
///   }
/// }
/// ```
///
/// The child's effects are mapped back into parent actions. Put `Scope` before a parent's own
/// `Reduce` so the parent sees the state after the child changed it (TCA's order).
public struct Scope<ParentState, ParentAction, Child: Reducer>: Reducer {
  @usableFromInline let toChildState: WritableKeyPath<ParentState, Child.State>
  @usableFromInline let toChildAction: AnyCasePath<ParentAction, Child.Action>
  @usableFromInline let child: any Reducer<Child.State, Child.Action>

  /// Scopes with a case path literal (`\.child`): the fast form.
  public init(
    state toChildState: WritableKeyPath<ParentState, Child.State>,
    action toChildAction: ActionPath<ParentAction, Child.Action>,
    @ReducerBuilder<Child.State, Child.Action> child: () -> Child
  ) where ParentAction: CasePathable {
    self.init(
      state: toChildState, action: ParentAction.casePath(toChildAction), child: child
    )
  }

  /// Scopes with any case key path, including chained ones.
  @_disfavoredOverload
  public init(
    state toChildState: WritableKeyPath<ParentState, Child.State>,
    action toChildAction: CaseKeyPath<ParentAction, Child.Action>,
    @ReducerBuilder<Child.State, Child.Action> child: () -> Child
  ) {
    self.init(state: toChildState, action: AnyCasePath(toChildAction), child: child)
  }

  /// Scopes with an explicit embed/extract pair.
  public init(
    state toChildState: WritableKeyPath<ParentState, Child.State>,
    action toChildAction: AnyCasePath<ParentAction, Child.Action>,
    @ReducerBuilder<Child.State, Child.Action> child: () -> Child
  ) {
    self.toChildState = toChildState
    self.toChildAction = toChildAction
    self.child = child()._compiled()
  }

  @inlinable
  public func reduce(into state: inout ParentState, action: ParentAction) -> Effect<ParentAction> {
    guard let childAction = self.toChildAction.extract(from: action) else { return .none }
    let effect = self.child.reduce(into: &state[keyPath: self.toChildState], action: childAction)
    if case .none = effect.operation { return .none }
    let toChildAction = self.toChildAction
    return effect._map { toChildAction.embed($0) }
  }
}
