import CasePaths
import PatchbayComposition
import PatchbayCore

/// What can happen to a ``StackState``: a screen's own action, a pop, or a push.
///
/// ```swift
/// store.send(.path(.push(id: 0, state: .counter(Counter.State()))))
/// store.send(.path(.element(id: 0, action: .counter(.increment))))
/// store.send(.path(.popFrom(id: 0)))
/// ```
@CasePathable
public enum StackAction<State, Action> {
  /// An action for the screen with `id`.
  case element(id: StackElementID, action: Action)
  /// Removes the screen with `id` and every screen above it, after the parent saw the action.
  case popFrom(id: StackElementID)
  /// Pushes a screen with `id`, before the parent sees the action.
  case push(id: StackElementID, state: State)
}

extension StackAction.AllCasePaths {
  /// The action of the screen with `id`: `\.path[id: 0].counter.incrementTapped`.
  public subscript(id id: StackElementID) -> AnyCasePath<StackAction, Action> {
    AnyCasePath(
      embed: { .element(id: id, action: $0) },
      extract: {
        guard case .element(id, let action) = $0 else { return nil }
        return action
      }
    )
  }
}

extension StackAction: Equatable where State: Equatable, Action: Equatable {}
extension StackAction: Hashable where State: Hashable, Action: Hashable {}
extension StackAction: Sendable where State: Sendable, Action: Sendable {}

extension StackAction: CaseKeyPathComponentDescribing {
  public var _caseKeyPathComponent: (description: String, next: Any?) {
    switch self {
    case .element(let id, let action): ("[id: \(id.rawValue)]", action)
    case .popFrom(let id): (".popFrom(id: \(id.rawValue))", nil)
    case .push(let id, _): (".push(id: \(id.rawValue))", nil)
    }
  }
}

/// The stack action of `R` screens: `StackActionOf<Path>`.
public typealias StackActionOf<R: Reducer> = StackAction<R.State, R.Action>
