import Dependencies
import IssueReporting
import PatchbayComposition
import PatchbayCore

/// Lets a presented feature (or a screen on a stack) close itself, from an effect.
///
/// ```swift
/// @Reducer
/// struct EditItem {
///   @Dependency(\.dismiss) var dismiss
///   …
///   case .saveButtonTapped:
///     return .run { _ in await self.dismiss() }
/// }
/// ```
///
/// `ifLet(\.$destination, …)` answers with the parent's `.destination(.dismiss)`, and a stack's
/// `forEach(\.path, …)` with `.path(.popFrom(id:))`: the parent sees the action, then the state
/// goes and the feature's effects are cancelled. Calling it from a feature nobody presented
/// reports an issue (a test failure under a test runner).
public struct DismissEffect: Sendable {
  let dismiss: (@Sendable () async -> Void)?

  init(_ dismiss: (@Sendable () async -> Void)?) {
    self.dismiss = dismiss
  }

  /// Asks the presenting parent to dismiss this feature.
  public func callAsFunction(
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    guard let dismiss = self.dismiss else {
      reportIssue(
        """
        A feature called 'dismiss()', but no parent presented it, so nothing happened.

        Fix: present the feature with 'ifLet(\\.$destination, action: \\.destination)' or push \
        it on a stack with 'forEach(\\.path, action: \\.path)'; in a test of the feature alone, \
        override it: 'withDependencies: { $0.dismiss = DismissEffect { … } }'.
        """,
        fileID: fileID, filePath: filePath, line: line, column: column
      )
      return
    }
    await dismiss()
  }
}

extension DismissEffect {
  /// A dismiss effect that runs `dismiss`, for tests of a feature on its own.
  public init(_ dismiss: @escaping @Sendable () async -> Void) {
    self.dismiss = dismiss
  }
}

extension DependencyValues {
  /// Closes the feature whose effect calls it (see ``DismissEffect``).
  public var dismiss: DismissEffect {
    get { self[DismissEffectKey.self] }
    set { self[DismissEffectKey.self] = newValue }
  }
}

private enum DismissEffectKey: DependencyKey {
  static let liveValue = DismissEffect(nil)
  static let testValue = DismissEffect(nil)
}
