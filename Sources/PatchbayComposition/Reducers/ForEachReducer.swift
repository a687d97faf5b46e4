import CasePaths
import IdentifiedCollections
import PatchbayCore

extension Reducer {
  /// Runs an element reducer on each element of an identified collection, by id, before this
  /// reducer.
  ///
  /// ```swift
  /// struct Todos: Reducer {
  ///   struct State { var todos: IdentifiedArrayOf<Todo.State> = [] }
  ///   @CasePathable enum Action { case todos(IdentifiedActionOf<Todo>) }
  ///
  ///   var body: some Reducer<State, Action> {
  ///     EmptyReducer()
  ///       .forEach(\.todos, action: \.todos) { Todo() }
  ///   }
  /// }
  /// ```
  ///
  /// Each element's effects are scoped to it: removing an element cancels them, and two
  /// elements using the same cancellation id do not cancel each other. An action for a missing
  /// id is reported as a warning and changes nothing.
  public func forEach<
    ID: Hashable & Sendable, ElementState, ElementAction,
    Element: Reducer<ElementState, ElementAction>
  >(
    _ toElements: WritableKeyPath<State, IdentifiedArray<ID, ElementState>>,
    action toElementAction: ActionPath<Action, IdentifiedAction<ID, ElementAction>>,
    @ReducerBuilder<ElementState, ElementAction> element: () -> Element,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> _ForEachReducer<Self, ID, ElementState, ElementAction>
  where Action: CasePathable {
    _ForEachReducer(
      parent: self, toElements: toElements,
      toElementAction: Action.casePath(toElementAction), element: element()._compiled(),
      location: SourceLocation(fileID, filePath, line, column)
    )
  }
}

/// The reducer ``Reducer/forEach(_:action:element:fileID:filePath:line:column:)`` builds.
public struct _ForEachReducer<
  Parent: Reducer, ID: Hashable & Sendable, ElementState, ElementAction
>:
  Reducer
{
  let parent: Parent
  let toElements: WritableKeyPath<Parent.State, IdentifiedArray<ID, ElementState>>
  let toElementAction: AnyCasePath<Parent.Action, IdentifiedAction<ID, ElementAction>>
  let element: any Reducer<ElementState, ElementAction>
  let location: SourceLocation

  public func reduce(into state: inout Parent.State, action: Parent.Action) -> Effect<
    Parent.Action
  > {
    var elementEffect = Effect<Parent.Action>.none
    if case .element(let id, let elementAction)? = self.toElementAction.extract(from: action) {
      if state[keyPath: self.toElements][id: id] == nil {
        runtimeWarn(
          """
          A 'forEach' at \(self.location) received an action for a missing element (id \
          \(describe(id))), and ignored it. Action: \(describe(action)). Likely cause: the \
          element was removed first, or an effect outlived it. Fix: send element actions only \
          for elements in the collection.
          """, location: self.location
        )
      } else {
        let toElementAction = self.toElementAction
        elementEffect = self.element
          .reduce(into: &state[keyPath: self.toElements][id: id]!, action: elementAction)
          ._map { toElementAction.embed(.element(id: id, action: $0)) }
          .inChildScope(ChildEffectScope(self.toElements, element: id))
      }
    }
    let idsBefore = state[keyPath: self.toElements].ids
    let parentEffect = self.parent.reduce(into: &state, action: action)
    let idsAfter = state[keyPath: self.toElements].ids
    var effect = elementEffect.merge(with: parentEffect)
    for id in idsBefore.removed(in: idsAfter) {
      effect = effect.merge(with: .cancel(ChildEffectScope(self.toElements, element: id)))
    }
    return effect
  }
}
