import CasePaths
import PatchbayCore

/// An action for one element of a collection, by its id: `.rows(.element(id: 3, action: .tap))`.
@CasePathable
public enum IdentifiedAction<ID: Hashable & Sendable, Action> {
  case element(id: ID, action: Action)
}

extension IdentifiedAction.AllCasePaths {
  /// The action of the element with `id`: `\.todos[id: todo.id].checkBoxToggled`.
  public subscript(id id: ID) -> AnyCasePath<IdentifiedAction, Action> {
    AnyCasePath(
      embed: { .element(id: id, action: $0) },
      extract: {
        guard case .element(id, let action) = $0 else { return nil }
        return action
      }
    )
  }
}

extension IdentifiedAction: Equatable where Action: Equatable {}
extension IdentifiedAction: Hashable where Action: Hashable {}
extension IdentifiedAction: Sendable where Action: Sendable {}

/// The action of a collection of `R` features: `IdentifiedActionOf<Row>`.
public typealias IdentifiedActionOf<R: Reducer> = IdentifiedAction<R.State.ID, R.Action>
where R.State: Identifiable, R.State.ID: Sendable

extension IdentifiedAction: CaseKeyPathComponentDescribing {
  public var _caseKeyPathComponent: (description: String, next: Any?) {
    switch self {
    case .element(let id, let action): ("[id: \(String(reflecting: id))]", action)
    }
  }
}
