import PatchbayTesting
import Testing

private struct Loader: Reducer {
  struct State: Equatable { var value: Int? }
  @CasePathable enum Action: Equatable { case onAppear, load, loaded(Int), noop }

  @Dependency(\.continuousClock) var clock

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .onAppear:
      return .run { _ in try await Task.sleep(for: .seconds(3600)) }
    case .load:
      return .run { [clock] send in
        try await clock.sleep(for: .seconds(1))
        await send(.loaded(42))
      }
    case .loaded(let value):
      state.value = value
      return .none
    case .noop:
      return .none
    }
  }
}

@Suite struct TestStoreTaskTests {
  @Test func cancellingTheTaskEndsTheActionsEffects() async {
    let failures = await collectIssues {
      let store = TestStore(initialState: Loader.State()) { Loader() }
      let task = await store.send(.onAppear)
      #expect(!task.isCancelled)
      await task.cancel()
      #expect(task.isCancelled)
    }
    #expect(failures.map(\.message) == [])
  }

  @Test func finishWaitsForTheActionsEffects() async {
    let failures = await collectIssues {
      let clock = TestClock()
      let store = TestStore(initialState: Loader.State()) {
        Loader()
      } withDependencies: {
        $0.continuousClock = clock
      }
      let task = await store.send(.load)
      await clock.advance(by: .seconds(1))
      await task.finish()
      await store.receive(.loaded(42)) { $0.value = 42 }
    }
    #expect(failures.map(\.message) == [])
  }

  @Test func finishFailsWhenTheEffectOutlivesTheTimeout() async {
    let finishLine: UInt = #line + 4
    let failures = await collectIssues {
      let store = TestStore(initialState: Loader.State()) { Loader() }
      let task = await store.send(.onAppear)
      await task.finish(timeout: .milliseconds(20))
      await task.cancel()
    }
    #expect(failures.count == 1)
    #expect(failures.first?.message.contains("Expected the task to finish") == true)
    #expect(failures.first?.line == finishLine)
  }

  @Test func anActionWithoutEffectsGivesACancelledTask() async {
    let store = TestStore(initialState: Loader.State()) { Loader() }
    let task = await store.send(.noop)
    #expect(task.isCancelled)
    await task.finish()
  }

  @Test func tasksOfOneStoreAreDistinct() async {
    let store = TestStore(initialState: Loader.State()) { Loader() }
    let first = await store.send(.onAppear)
    let second = await store.send(.onAppear)
    #expect(first != second)
    #expect(first == first)
    await first.cancel()
    await second.cancel()
  }
}

@Suite struct TestStoreDependenciesTests {
  @Test func changingADependencyMidTestAppliesToLaterActions() async throws {
    let first = TestClock()
    let second = TestClock()
    let store = TestStore(initialState: Loader.State()) {
      Loader()
    } withDependencies: {
      $0.continuousClock = first
    }
    store.dependencies.continuousClock = second
    let task = await store.send(.load)
    try await first.checkSuspension()  // nothing sleeps on the first clock
    await #expect(throws: SuspensionError.self) { try await second.checkSuspension() }
    await second.advance(by: .seconds(1))
    await task.finish()
    await store.receive(.loaded(42)) { $0.value = 42 }
  }
}
