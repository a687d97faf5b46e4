import Patchbay

/// Tells the actions a test sends from the ones effects send.
enum TestAction<Action> {
  /// Sent by the test; `send` numbers it, so its effects can be found by ``TestStoreTask``.
  case sent(Action, send: Int)
  case received(Action)
}

/// The cancellation id every effect of one sent action is filed under.
struct SentActionEffects: Hashable, Sendable {
  let send: Int
}

/// Runs the feature's reducer and records every action with the state around it.
struct TestReducer<State, Action>: Reducer {
  let base: any Reducer<State, Action>
  let log: TestLog<State, Action>
  /// Keeps what shared values were before each change, for the test to assert it.
  let sharedChanges: SharedChangeTracker

  func reduce(into state: inout State, action: TestAction<Action>) -> Effect<TestAction<Action>> {
    SharedChangeTracker.$current.withValue(self.sharedChanges) {
      self.reduceTracked(into: &state, action: action)
    }
    ._trackingSharedChanges(self.sharedChanges)
  }

  private func reduceTracked(
    into state: inout State, action: TestAction<Action>
  ) -> Effect<TestAction<Action>> {
    switch action {
    case .sent(let action, let send):
      let effect = self.base.reduce(into: &state, action: action)
      self.log.recordSent(action, state: state, startedEffects: !effect._isNone)
      return effect.map { .received($0) }.cancellable(id: SentActionEffects(send: send))
    case .received(let action):
      let effect = self.base.reduce(into: &state, action: action)
      self.log.recordReceived(action, state: state)
      return effect.map { .received($0) }
    }
  }
}
