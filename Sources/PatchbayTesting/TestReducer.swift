import Patchbay

/// Tells the actions a test sends from the ones effects send.
enum TestAction<Action> {
  case sent(Action)
  case received(Action)
}

/// Runs the feature's reducer and records every action with the state around it.
struct TestReducer<State, Action>: Reducer {
  let base: any Reducer<State, Action>
  let log: TestLog<State, Action>

  func reduce(into state: inout State, action: TestAction<Action>) -> Effect<TestAction<Action>> {
    let effect: Effect<Action>
    switch action {
    case .sent(let action):
      effect = self.base.reduce(into: &state, action: action)
      self.log.recordSent(action, state: state)
    case .received(let action):
      effect = self.base.reduce(into: &state, action: action)
      self.log.recordReceived(action, state: state)
    }
    return effect.map { .received($0) }
  }
}
