import PatchbayTesting
import Testing

/// A feature whose effects end in the ways TCA's tests end: cancelled by an action, or just
/// past their last send.
private struct Ticker: Reducer {
  struct State: Equatable { var received: [Int] = [] }
  @CasePathable enum Action: Equatable { case start, stop, burst, got(Int) }
  enum CancelID { case ticker }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .start:
      return .run { _ in try await Task.sleep(for: .seconds(3600)) }
        .cancellable(id: CancelID.ticker)
    case .stop:
      return .cancel(id: CancelID.ticker)
    case .burst:
      return .run { send in
        await send(.got(1))
        await send(.got(2))
        // Work after the last send keeps the effect alive while the test ends.
        for _ in 0..<200 { await Task.yield() }
      }
    case .got(let n):
      state.received.append(n)
      return .none
    }
  }
}

@Suite struct EffectAccountingTests {
  @Test func aCancelledEffectStopsCountingBeforeTheCancellingActionReturns() async {
    for _ in 0..<100 {
      let failures = await collectIssues {
        let store = TestStore(initialState: Ticker.State()) { Ticker() }
        await store.send(.start)
        await store.send(.stop)
        await store.finish(timeout: .zero)
      }
      #expect(failures.map(\.message) == [])
    }
  }

  @Test func aTestMayEndRightAfterCancellingAsInTCA() async {
    for _ in 0..<100 {
      let failures = await collectIssues {
        let store = TestStore(initialState: Ticker.State()) { Ticker() }
        await store.send(.start)
        await store.send(.stop)
      }
      #expect(failures.map(\.message) == [])
    }
  }

  @Test func aTestMayEndWhileTheLastEffectUnwinds() async {
    for _ in 0..<100 {
      let failures = await collectIssues {
        let store = TestStore(initialState: Ticker.State()) { Ticker() }
        await store.send(.burst)
        await store.receive(.got(1)) { $0.received = [1] }
        await store.receive(.got(2)) { $0.received = [1, 2] }
      }
      #expect(failures.map(\.message) == [])
    }
  }

  @Test func anEffectThatKeepsRunningStillFailsTheTest() async {
    let failures = await collectIssues {
      let store = TestStore(initialState: Ticker.State()) { Ticker() }
      store.timeout = .milliseconds(100)
      await store.send(.start)
    }
    #expect(failures.count == 1)
    #expect(failures.first?.message.contains("1 effect(s) were still running") == true)
  }
}
