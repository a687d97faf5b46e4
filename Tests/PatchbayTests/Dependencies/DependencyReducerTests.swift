import Patchbay
import PatchbayTesting
import Testing

private struct Stamp: Reducer {
  struct State: Equatable { var stamp: Date? }
  enum Action: Equatable { case stamp }
  @Dependency(\.date.now) var now
  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    state.stamp = self.now
    return .none
  }
}

import Foundation

@Suite struct DependencyReducerTests {
  @Test func storeOverridesReachTheReducer() {
    let fixed = Date(timeIntervalSince1970: 1_000)
    let store = Store(initialState: Stamp.State()) { Stamp() } withDependencies: {
      $0.date.now = fixed
    }
    store.send(.stamp)
    #expect(store.state.stamp == fixed)
  }

  @Test func dependencyModifierOverridesForOneReducer() {
    let fixed = Date(timeIntervalSince1970: 42)
    let store = Store(initialState: Stamp.State()) {
      Stamp().dependency(\.date, DateGenerator.constant(fixed))
    }
    store.send(.stamp)
    #expect(store.state.stamp == fixed)
  }

  @Test func testStoreOverridesReachTheReducer() async {
    let fixed = Date(timeIntervalSince1970: 7)
    let store = TestStore(initialState: Stamp.State()) { Stamp() } withDependencies: {
      $0.date.now = fixed
    }
    await store.send(.stamp) { $0.stamp = fixed }
  }
}
