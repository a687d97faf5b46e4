import Patchbay
import Synchronization
import Testing

@Suite struct PrintChangesTests {
  @Test func printsActionAndStateDiff() {
    let output = Mutex<[String]>([])
    let store = Store(initialState: Counter.State()) {
      Counter()._printChanges(ChangePrinter { text in output.withLock { $0.append(text) } })
    }
    store.send(.increment)
    store.send(.setStep(1))
    let printed = output.withLock { $0 }
    #expect(printed.count == 2)
    #expect(printed[0].contains("received action:"))
    #expect(printed[0].contains("Counter.Action.increment"))
    #expect(printed[0].contains("-   count: 0,"))
    #expect(printed[0].contains("+   count: 1,"))
    #expect(printed[1].contains("(No state changes)"))
  }

  @Test func labelFormatPrintsOnlyTheAction() {
    let output = Mutex<[String]>([])
    let store = Store(initialState: Counter.State()) {
      Counter()._printChanges(
        ChangePrinter(format: .label) { text in output.withLock { $0.append(text) } }
      )
    }
    store.send(.setStep(3))
    #expect(output.withLock { $0 } == ["received action:\n  Counter.Action.setStep(3)"])
  }
}
