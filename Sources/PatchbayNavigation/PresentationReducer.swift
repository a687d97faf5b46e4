import CasePaths
import Foundation
import PatchbayComposition
import PatchbayCore

extension Reducer {
  /// Runs a presented feature's reducer while it is on screen, and applies `dismiss`.
  ///
  /// ```swift
  /// Reduce { state, action in /* present with state.destination = ... */ }
  ///   .ifLet(\.$destination, action: \.destination) { Destination() }
  /// ```
  ///
  /// Order: a presented action runs the child first, then this reducer; `dismiss` runs this
  /// reducer (which still sees the child) and then clears the state. Dismissal, however it
  /// happens, cancels the child's effects. A presented action or a `dismiss` arriving with
  /// nothing presented is reported as a warning and changes nothing.
  public func ifLet<
    DestinationState, DestinationAction,
    Destination: Reducer<DestinationState, DestinationAction>
  >(
    _ toPresentationState: WritableKeyPath<State, PresentationState<DestinationState>>,
    action toPresentationAction: ActionPath<Action, PresentationAction<DestinationAction>>,
    @ReducerBuilder<DestinationState, DestinationAction> destination: () -> Destination,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> _PresentationReducer<Self, DestinationState, DestinationAction>
  where Action: CasePathable {
    _PresentationReducer(
      parent: self, toPresentationState: toPresentationState,
      toPresentationAction: Action.casePath(toPresentationAction),
      destination: destination()._compiled(),
      location: SourceLocation(fileID, filePath, line, column)
    )
  }
}

extension Reducer {
  /// Presents an alert or a confirmation dialog, which has no reducer of its own:
  /// `.ifLet(\.$alert, action: \.alert)`. Any of its actions reaches this reducer and then
  /// dismisses it, unless this reducer presented another one while handling the action.
  public func ifLet<DestinationState: _EphemeralState, DestinationAction>(
    _ toPresentationState: WritableKeyPath<State, PresentationState<DestinationState>>,
    action toPresentationAction: ActionPath<Action, PresentationAction<DestinationAction>>,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> _PresentationReducer<Self, DestinationState, DestinationAction>
  where Action: CasePathable {
    self.ifLet(
      toPresentationState, action: toPresentationAction,
      destination: { EmptyReducer<DestinationState, DestinationAction>() },
      fileID: fileID, filePath: filePath, line: line, column: column)
  }
}

/// The reducer ``Reducer/ifLet(_:action:destination:fileID:filePath:line:column:)`` builds.
public struct _PresentationReducer<Parent: Reducer, DestinationState, DestinationAction>: Reducer {
  let parent: Parent
  let toPresentationState: WritableKeyPath<Parent.State, PresentationState<DestinationState>>
  let toPresentationAction: AnyCasePath<Parent.Action, PresentationAction<DestinationAction>>
  let destination: any Reducer<DestinationState, DestinationAction>
  let location: SourceLocation

  public func reduce(into state: inout Parent.State, action: Parent.Action) -> Effect<
    Parent.Action
  > {
    let scope = ChildEffectScope(self.toPresentationState)
    let presentationAction = self.toPresentationAction.extract(from: action)
    let wasPresented = state[keyPath: self.toPresentationState].wrappedValue != nil
    var effect = Effect<Parent.Action>.none

    switch presentationAction {
    case .presented(let destinationAction)?:
      if wasPresented {
        let toPresentationAction = self.toPresentationAction
        effect = self.destination
          .reduce(
            into: &state[keyPath: self.toPresentationState].wrappedValue!,
            action: destinationAction
          )
          ._map { toPresentationAction.embed(.presented($0)) }
          .withDependencies(sending: { dependencies, send in
            dependencies.dismiss = DismissEffect {
              await send(toPresentationAction.embed(.dismiss))
            }
          })
          .inChildScope(scope)
      } else {
        self.warn("an action for a presented feature", action)
      }
    case .dismiss?:
      if !wasPresented { self.warn("'dismiss'", action) }
    case nil:
      break
    }

    // An alert's or a dialog's own presentation, to dismiss it after any of its actions.
    var ephemeral: UUID?
    if self.isEphemeral, case .presented? = presentationAction {
      ephemeral = Self.presentationID(of: state[keyPath: self.toPresentationState])
    }

    effect = effect.merge(with: self.parent.reduce(into: &state, action: action))

    switch presentationAction {
    case .dismiss?:
      state[keyPath: self.toPresentationState].wrappedValue = nil
    case .presented?:
      if let ephemeral,
        Self.presentationID(of: state[keyPath: self.toPresentationState]) == ephemeral
      {
        state[keyPath: self.toPresentationState].wrappedValue = nil
      }
    case nil:
      break
    }
    if wasPresented, state[keyPath: self.toPresentationState].wrappedValue == nil {
      effect = effect.merge(with: .cancel(scope))
    }
    return effect
  }

  /// Whether the destination is an alert or a dialog, which any of its actions dismisses:
  /// asked once, when the reducer is made, not per action.
  let isEphemeral = DestinationState.self is any _EphemeralState.Type

  static func presentationID(of state: PresentationState<DestinationState>) -> UUID? {
    (state.wrappedValue as? any _EphemeralState)?._presentationID
  }

  private func warn(_ what: String, _ action: Parent.Action) {
    runtimeWarn(
      """
      An 'ifLet' at \(self.location) received \(what) while nothing was presented, and \
      ignored it. Action: \(describe(action)). Likely cause: the feature was dismissed first, \
      or an effect outlived it. Fix: send presented actions only while the state is non-nil.
      """, location: self.location
    )
  }
}
