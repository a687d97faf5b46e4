import Foundation
import Patchbay
import PatchbayTestWaiting
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

/// Reads the date inside an effect, to see which dependencies effects get.
private struct LateStamp: Reducer {
  struct State: Equatable { var stamp: Date? }
  @CasePathable enum Action: Equatable { case stamp, stamped(Date) }
  @Dependency(\.date) var date
  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .stamp:
      return .run { send in
        @Dependency(\.date) var date
        await Task.yield()
        await send(.stamped(date.now))
      }
    case .stamped(let date):
      state.stamp = date
      return .none
    }
  }
}

@Suite(.highPriority) struct DependencyReducerTests {
  @Test func storeOverridesReachEffects() async {
    let fixed = Date(timeIntervalSince1970: 99)
    let store = Store(initialState: LateStamp.State()) {
      LateStamp()
    } withDependencies: {
      $0.date.now = fixed
    }
    store.send(.stamp)
    #expect(await eventually { store.state.stamp != nil })
    #expect(store.state.stamp == fixed)
  }

  @Test func dependencyModifierReachesEffects() async {
    let fixed = Date(timeIntervalSince1970: 123)
    let store = Store(initialState: LateStamp.State()) {
      LateStamp().dependency(\.date, DateGenerator.constant(fixed))
    }
    store.send(.stamp)
    #expect(await eventually { store.state.stamp != nil })
    #expect(store.state.stamp == fixed)
  }

  @Test func storeOverridesReachTheReducer() {
    let fixed = Date(timeIntervalSince1970: 1_000)
    let store = Store(initialState: Stamp.State()) {
      Stamp()
    } withDependencies: {
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
    let store = TestStore(initialState: Stamp.State()) {
      Stamp()
    } withDependencies: {
      $0.date.now = fixed
    }
    await store.send(.stamp) { $0.stamp = fixed }
  }
}
