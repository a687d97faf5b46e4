import PatchbayTesting
import Testing

private struct Stopwatch: Reducer {
  struct State: Equatable { var seconds = 0 }
  @CasePathable enum Action: Equatable { case start, stop, tick }
  enum CancelID { case timer }

  @Dependency(\.continuousClock) var clock

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .start:
      return .run { [clock] send in
        for await _ in clock.timer(interval: .seconds(1)) {
          await send(.tick)
        }
      }
      .cancellable(id: CancelID.timer)
    case .stop:
      return .cancel(id: CancelID.timer)
    case .tick:
      state.seconds += 1
      return .none
    }
  }
}

@Suite struct TestClockTests {
  /// 500 stores, 16 at a time, each advancing its own clock by five seconds at once: every
  /// tick must arrive (a lost one fails that store's `receive`). Sixteen stores at once keep
  /// both cores of a small machine switching between them, which is what once lost ticks; 500
  /// test cases started together held the whole test pool for half a minute instead, and the
  /// rest of the run (tests waiting on other threads) timed out behind them.
  @Test func advancingDeliversEveryTimerTick() async {
    await withTaskGroup(of: Void.self) { group in
      for run in 0..<500 {
        if run >= 16 { await group.next() }
        group.addTask { await Self.advanceFiveSeconds() }
      }
    }
  }

  private static func advanceFiveSeconds() async {
    let clock = TestClock()
    let store = TestStore(initialState: Stopwatch.State()) {
      Stopwatch()
    } withDependencies: {
      $0.continuousClock = clock
    }
    await store.send(.start)
    await clock.advance(by: .seconds(5))
    for second in 1...5 {
      await store.receive(.tick) { $0.seconds = second }
    }
    await store.send(.stop)
  }

  @Test func sleepersWakeInDeadlineOrder() async throws {
    let clock = TestClock()
    let order = LockIsolated<[Int]>([])
    let late = Task {
      try await clock.sleep(for: .seconds(2)); order.withValue { $0.append(2) }
    }
    let early = Task {
      try await clock.sleep(for: .seconds(1)); order.withValue { $0.append(1) }
    }
    while (try? await clock.checkSuspension()) != nil { await Task.yield() }
    await clock.advance(by: .seconds(3))
    try await late.value
    try await early.value
    #expect(order.value == [1, 2])
    #expect(clock.now.offset == .seconds(3))
  }

  @Test func cancellingASleepThrowsAndForgetsIt() async throws {
    let clock = TestClock()
    let sleeper = Task { try await clock.sleep(for: .seconds(1)) }
    while (try? await clock.checkSuspension()) != nil { await Task.yield() }
    sleeper.cancel()
    await #expect(throws: CancellationError.self) { try await sleeper.value }
    try await clock.checkSuspension()
  }

  @Test func runFailsWhenSleepsNeverEnd() async {
    let failures = await collectIssues {
      let clock = TestClock()
      let store = TestStore(initialState: Stopwatch.State()) {
        Stopwatch()
      } withDependencies: {
        $0.continuousClock = clock
      }
      store.exhaustivity = .off
      await store.send(.start)
      await clock.run(timeout: .milliseconds(50))
      await store.send(.stop)
    }
    #expect(failures.count == 1)
    #expect(failures.first?.message.contains("Expected all sleeps to finish") == true)
  }
}
