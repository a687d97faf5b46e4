import CasePaths

/// What can happen to a ``StackState``: a screen's own action, a pop, or a push.
///
/// ```swift
/// store.send(.path(.push(id: 0, state: .counter(Counter.State()))))
/// store.send(.path(.element(id: 0, action: .counter(.increment))))
/// store.send(.path(.popFrom(id: 0)))
/// ```
public enum StackAction<State, Action>: CasePathable {
  /// An action for the screen with `id`.
  case element(id: StackElementID, action: Action)
  /// Removes the screen with `id` and every screen above it, after the parent saw the action.
  case popFrom(id: StackElementID)
  /// Pushes a screen with `id`, before the parent sees the action.
  case push(id: StackElementID, state: State)

  public struct AllCasePaths: Sendable {
    public var element: AnyCasePath<StackAction, (id: StackElementID, action: Action)> {
      AnyCasePath(
        embed: { .element(id: $0.id, action: $0.action) },
        extract: {
          guard case .element(let id, let action) = $0 else { return nil }
          return (id, action)
        }
      )
    }

    public var popFrom: AnyCasePath<StackAction, StackElementID> {
      AnyCasePath(
        embed: { .popFrom(id: $0) },
        extract: {
          guard case .popFrom(let id) = $0 else { return nil }
          return id
        }
      )
    }

    public var push: AnyCasePath<StackAction, (id: StackElementID, state: State)> {
      AnyCasePath(
        embed: { .push(id: $0.id, state: $0.state) },
        extract: {
          guard case .push(let id, let state) = $0 else { return nil }
          return (id, state)
        }
      )
    }

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

  public static var allCasePaths: AllCasePaths { AllCasePaths() }
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
