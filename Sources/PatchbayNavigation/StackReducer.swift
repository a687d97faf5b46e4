import CasePaths
import PatchbayComposition
import PatchbayCore

extension Reducer {
  /// Runs a screen reducer for the screens of a navigation stack, and applies pushes and pops.
  ///
  /// ```swift
  /// Reduce { state, action in /* push with state.path.append(...) */ }
  ///   .forEach(\.path, action: \.path) { Path() }
  /// ```
  ///
  /// Order, as in TCA: a screen's action runs the screen first, then this reducer; `push`
  /// adds the screen, then runs this reducer; `popFrom` runs this reducer (which still sees
  /// the screens) and then removes them. Removing a screen, however it happens, cancels its
  /// effects. An action for a missing screen is reported as a warning and changes nothing.
  public func forEach<
    DestinationState, DestinationAction,
    Destination: Reducer<DestinationState, DestinationAction>
  >(
    _ toStack: WritableKeyPath<State, StackState<DestinationState>>,
    action toStackAction: ActionPath<Action, StackAction<DestinationState, DestinationAction>>,
    @ReducerBuilder<DestinationState, DestinationAction> destination: () -> Destination,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> _StackReducer<Self, DestinationState, DestinationAction>
  where Action: CasePathable {
    _StackReducer(
      parent: self, toStack: toStack, toStackAction: Action.casePath(toStackAction),
      destination: destination()._compiled(),
      location: SourceLocation(fileID, filePath, line, column)
    )
  }
}

/// The reducer ``Reducer/forEach(_:action:destination:fileID:filePath:line:column:)`` builds.
public struct _StackReducer<Parent: Reducer, DestinationState, DestinationAction>: Reducer {
  let parent: Parent
  let toStack: WritableKeyPath<Parent.State, StackState<DestinationState>>
  let toStackAction: AnyCasePath<Parent.Action, StackAction<DestinationState, DestinationAction>>
  let destination: any Reducer<DestinationState, DestinationAction>
  let location: SourceLocation

  public func reduce(into state: inout Parent.State, action: Parent.Action) -> Effect<
    Parent.Action
  > {
    let idsBefore = state[keyPath: self.toStack].ids
    var effect = Effect<Parent.Action>.none
    let stackAction = self.toStackAction.extract(from: action)
    switch stackAction {
    case .element(let id, let destinationAction)?:
      if state[keyPath: self.toStack][id: id] == nil {
        self.warn("an action for screen \(id), which is not on the stack", action)
      } else {
        let toStackAction = self.toStackAction
        effect = self.destination
          .reduce(into: &state[keyPath: self.toStack][id: id]!, action: destinationAction)
          ._map { toStackAction.embed(.element(id: id, action: $0)) }
          .withDependencies(sending: { dependencies, send in
            dependencies.dismiss = DismissEffect {
              await send(toStackAction.embed(.popFrom(id: id)))
            }
          })
          .inChildScope(ChildEffectScope(self.toStack, element: id))
      }
    case .push(let id, let screen)?:
      if state[keyPath: self.toStack].ids.contains(id) {
        self.warn("a push of screen \(id), which is already on the stack", action)
      } else {
        state[keyPath: self.toStack].append(screen, id: id)
      }
    case .popFrom(let id)?:
      if state[keyPath: self.toStack][id: id] == nil {
        self.warn("a pop from screen \(id), which is not on the stack", action)
      }
    case nil:
      break
    }

    effect = effect.merge(with: self.parent.reduce(into: &state, action: action))

    if case .popFrom(let id)? = stackAction {
      state[keyPath: self.toStack].pop(from: id)
    }
    let idsAfter = state[keyPath: self.toStack].ids
    for id in idsBefore.removed(in: idsAfter) {
      effect = effect.merge(with: .cancel(ChildEffectScope(self.toStack, element: id)))
    }
    return effect
  }

  private func warn(_ what: String, _ action: Parent.Action) {
    runtimeWarn(
      """
      A navigation stack 'forEach' at \(self.location) received \(what), and ignored it. \
      Action: \(describe(action)). Likely cause: the screen was popped first, or an effect \
      outlived it. Fix: address screens by the ids in 'StackState.ids'.
      """, location: self.location
    )
  }
}
