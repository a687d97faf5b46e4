import CasePaths
import PatchbayCore

/// `Scope` without the `state:` label, the form of TCA's current examples:
///
/// ```swift
/// Scope(\.counter, action: \.counter) { Counter() }
/// ```
///
/// Each forwards to the labelled initializer of the same shape.
extension Scope {
  /// A stored property and a case path literal, without the label.
  @inlinable
  public init<ChildState, ChildAction, Child: Reducer<ChildState, ChildAction>>(
    _ toChildState: WritableKeyPath<ParentState, ChildState>,
    action toChildAction: ActionPath<ParentAction, ChildAction>,
    @ReducerBuilder<ChildState, ChildAction> child: () -> Child
  ) where ParentAction: CasePathable {
    self.init(state: toChildState, action: toChildAction, child: child)
  }

  /// The chained case key path form without the label.
  @_disfavoredOverload
  public init<ChildState, ChildAction, Child: Reducer<ChildState, ChildAction>>(
    _ toChildState: WritableKeyPath<ParentState, ChildState>,
    action toChildAction: CaseKeyPath<ParentAction, ChildAction>,
    @ReducerBuilder<ChildState, ChildAction> child: () -> Child
  ) {
    self.init(state: toChildState, action: toChildAction, child: child)
  }

  /// One case of an enum state, without the label: `Scope(\.loggedIn, action: \.loggedIn)`.
  public init<ChildState, ChildAction, Child: Reducer<ChildState, ChildAction>>(
    _ toChildState: CaseKeyPath<ParentState, ChildState>,
    action toChildAction: CaseKeyPath<ParentAction, ChildAction>,
    @ReducerBuilder<ChildState, ChildAction> child: () -> Child,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) where ParentState: CasePathable {
    self.init(
      state: toChildState, action: toChildAction, child: child, fileID: fileID,
      filePath: filePath, line: line, column: column)
  }
}
