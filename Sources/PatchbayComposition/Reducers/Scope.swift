import CasePaths
import PatchbayCore

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
public struct Scope<ParentState, ParentAction>: Reducer {
  @usableFromInline let run: (inout ParentState, ParentAction) -> Effect<ParentAction>

  /// Scopes with a case path literal (`\.child`): the fast form.
  @inlinable
  public init<ChildState, ChildAction, Child: Reducer<ChildState, ChildAction>>(
    state toChildState: WritableKeyPath<ParentState, ChildState>,
    action toChildAction: ActionPath<ParentAction, ChildAction>,
    @ReducerBuilder<ChildState, ChildAction> child: () -> Child
  ) where ParentAction: CasePathable {
    self.init(
      state: toChildState, action: ParentAction.casePath(toChildAction), child: child
    )
  }

  /// Scopes with any case key path, including chained ones.
  @_disfavoredOverload
  public init<ChildState, ChildAction, Child: Reducer<ChildState, ChildAction>>(
    state toChildState: WritableKeyPath<ParentState, ChildState>,
    action toChildAction: CaseKeyPath<ParentAction, ChildAction>,
    @ReducerBuilder<ChildState, ChildAction> child: () -> Child
  ) {
    self.init(state: toChildState, action: AnyCasePath(toChildAction), child: child)
  }

  /// Scopes with an explicit embed/extract pair.
  @inlinable
  public init<ChildState, ChildAction, Child: Reducer<ChildState, ChildAction>>(
    state toChildState: WritableKeyPath<ParentState, ChildState>,
    action toChildAction: AnyCasePath<ParentAction, ChildAction>,
    @ReducerBuilder<ChildState, ChildAction> child: () -> Child
  ) {
    let child = child()._compiled()
    if let offset = MemoryLayout<ParentState>.offset(of: toChildState) {
      // A stored property: reach it by its offset instead of through the key path runtime.
      self.run = { state, action in
        guard let childAction = toChildAction.extract(from: action) else { return .none }
        let effect = withUnsafeMutablePointer(to: &state) { parent in
          let childState = UnsafeMutableRawPointer(parent).advanced(by: offset)
            .assumingMemoryBound(to: ChildState.self)
          return child.reduce(into: &childState.pointee, action: childAction)
        }
        if effect.isNone { return .none }
        return effect._map { toChildAction.embed($0) }
      }
    } else {
      self.run = { state, action in
        guard let childAction = toChildAction.extract(from: action) else { return .none }
        let effect = child.reduce(into: &state[keyPath: toChildState], action: childAction)
        if effect.isNone { return .none }
        return effect._map { toChildAction.embed($0) }
      }
    }
  }

  /// Scopes to one case of an enum state: `Scope(state: \.loggedIn, action: \.loggedIn) {
  /// Home() }`. A child action that arrives while the state is in another case is reported
  /// (a test failure in tests, a warning in apps) and changes nothing.
  public init<ChildState, ChildAction, Child: Reducer<ChildState, ChildAction>>(
    state toChildState: CaseKeyPath<ParentState, ChildState>,
    action toChildAction: CaseKeyPath<ParentAction, ChildAction>,
    @ReducerBuilder<ChildState, ChildAction> child: () -> Child,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) where ParentState: CasePathable {
    let child = child()._compiled()
    let toChildState = AnyCasePath(toChildState)
    let toChildAction = AnyCasePath(toChildAction)
    let location = SourceLocation(fileID, filePath, line, column)
    self.run = { state, action in
      guard let childAction = toChildAction.extract(from: action) else { return .none }
      guard var childState = toChildState.extract(from: state) else {
        runtimeWarn(
          """
          A 'Scope' at \(location) received a child action while the state was in another \
          case, and ignored it. Action: \(describe(action)). State: \(describe(state)). Likely \
          cause: the state changed case before an effect's action arrived. Fix: cancel the \
          child's effects when leaving the case, or use 'ifCaseLet', which does.
          """, location: location
        )
        return .none
      }
      let effect = child.reduce(into: &childState, action: childAction)
      state = toChildState.embed(childState)
      if effect.isNone { return .none }
      return effect._map { toChildAction.embed($0) }
    }
  }

  @inlinable
  public func reduce(into state: inout ParentState, action: ParentAction) -> Effect<ParentAction> {
    self.run(&state, action)
  }
}
