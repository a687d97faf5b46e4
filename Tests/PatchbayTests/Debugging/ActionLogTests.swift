import Patchbay
import Synchronization
import Testing

@Suite struct ActionLogTests {
  @Test func logsEveryActionWithStatesBeforeAndAfter() {
    let entries = Mutex<[(Counter.Action, Int, Int)]>([])
    let store = Store(initialState: Counter.State()) {
      Counter().logActions { entry in
        entries.withLock { $0.append((entry.action, entry.previousState.count, entry.state.count)) }
      }
    }
    store.send(.increment)
    store.send(.decrement)
    let logged = entries.withLock { $0 }
    #expect(logged.map(\.0) == [.increment, .decrement])
    #expect(logged.map(\.1) == [0, 1])
    #expect(logged.map(\.2) == [1, 0])
  }
}
