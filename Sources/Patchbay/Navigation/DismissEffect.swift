import Dependencies
import IssueReporting

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

extension Effect {
  /// The same effect with every `run` operation seeing dependencies that `update` sets from
  /// the operation's own `send`: how a presented feature's effects learn to dismiss it.
  func withDependencies(
    sending update: @escaping @Sendable (inout DependencyValues, Send<Action>) -> Void
  ) -> Self {
    switch self.operation {
    case .none, .send, .cancel, .request:
      return self
    case .run(let priority, let operation):
      return Self(
        .run(priority) { send in
          await Dependencies.withDependencies({ update(&$0, send) }) {
            await operation(send)
          }
        }
      )
    case .merge(let effects):
      return Self(.merge(effects.map { $0.withDependencies(sending: update) }))
    case .concatenate(let effects):
      return Self(.concatenate(effects.map { $0.withDependencies(sending: update) }))
    case .cancellable(let id, let cancelInFlight, let effect):
      return Self(
        .cancellable(
          id: id, cancelInFlight: cancelInFlight, effect.withDependencies(sending: update)
        )
      )
    }
  }
}
