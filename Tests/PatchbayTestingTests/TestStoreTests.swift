import Patchbay
import PatchbayTesting
import Testing

@Suite struct TestStoreTests {
  @Test func passingSendAndReceiveReportNothing() async {
    let failures = await collectIssues {
      let store = TestStore(initialState: Feature.State()) { Feature() }
      await store.send(.increment) { $0.count = 1 }
      await store.send(.echo)
      await store.receive(.echoed) { $0.text = "echoed" }
      #expect(store.state == Feature.State(count: 1, text: "echoed"))
    }
    #expect(failures.isEmpty)
  }

  @Test func wrongExpectationFailsWithADiffAtTheCallersLine() async throws {
    let sendLine: UInt = #line + 3
    let failures = await collectIssues {
      let store = TestStore(initialState: Feature.State()) { Feature() }
      await store.send(.increment) { $0.count = 2 }
    }
    #expect(failures.count == 1)
    let failure = try #require(failures.first)
    #expect(failure.message.contains("A state change does not match expectation"))
    #expect(failure.message.contains("−   count: 2"))
    #expect(failure.message.contains("+   count: 1"))
    #expect(failure.fileID == "PatchbayTestingTests/TestStoreTests.swift")
    #expect(failure.line == sendLine)
  }

  @Test func unassertedChangeFails() async {
    let failures = await collectIssues {
      let store = TestStore(initialState: Feature.State()) { Feature() }
      await store.send(.increment)
    }
    #expect(failures.count == 1)
    #expect(failures.first?.message.contains("+   count: 1") == true)
  }

  @Test func receivingTheWrongActionFails() async {
    let failures = await collectIssues {
      let store = TestStore(initialState: Feature.State()) { Feature() }
      await store.send(.echo)
      await store.receive(.increment)
    }
    #expect(failures.count >= 1)
    #expect(failures.first?.message.contains("Received an unexpected action") == true)
    #expect(failures.first?.message.contains("Feature.Action.echoed") == true)
  }

  @Test func receiveTimesOutWhenNothingArrives() async {
    let failures = await collectIssues {
      let store = TestStore(initialState: Feature.State()) { Feature() }
      await store.receive(.echoed, timeout: .milliseconds(50))
    }
    #expect(failures.count == 1)
    #expect(failures.first?.message.contains("received no action within") == true)
  }

  @Test func sendingWithUnhandledReceivedActionsFails() async {
    let failures = await collectIssues {
      let store = TestStore(initialState: Feature.State()) { Feature() }
      await store.send(.echo)
      await store.send(.increment) { $0.count = 1 }
      await store.skipReceivedActions()
    }
    #expect(failures.count == 1)
    #expect(failures.first?.message.contains("Must handle 1 received action(s)") == true)
  }

  @Test func unreceivedActionsFailAtTheEndOfTheTest() async {
    let storeLine: UInt = #line + 2
    let failures = await collectIssues {
      let store = TestStore(initialState: Feature.State()) { Feature() }
      await store.send(.echo)
    }
    #expect(failures.count == 1)
    #expect(failures.first?.message.contains("did not assert") == true)
    #expect(failures.first?.line == storeLine)
  }

  @Test func finishFailsWhenAnEffectIsStillRunning() async {
    let failures = await collectIssues {
      let store = TestStore(initialState: Feature.State()) { Feature() }
      await store.send(.sleepForever)
      await store.finish(timeout: .milliseconds(50))
      await store.skipInFlightEffects()
    }
    #expect(failures.count == 1)
    #expect(failures.first?.message.contains("Expected all effects to finish") == true)
  }

  @Test func runningEffectFailsAtTheEndOfTheTest() async {
    let failures = await collectIssues {
      let store = TestStore(initialState: Feature.State()) { Feature() }
      await store.send(.sleepForever)
    }
    #expect(failures.count == 1)
    #expect(failures.first?.message.contains("still running when the test ended") == true)
  }

  @Test func skipInFlightEffectsCancelsThem() async {
    let failures = await collectIssues {
      let store = TestStore(initialState: Feature.State()) { Feature() }
      await store.send(.sleepForever)
      await store.skipInFlightEffects()
      await store.finish(timeout: .milliseconds(200))
    }
    #expect(failures.isEmpty)
  }

  @Test func strictSkipsFailWhenThereIsNothingToSkip() async {
    let failures = await collectIssues {
      let store = TestStore(initialState: Feature.State()) { Feature() }
      await store.skipReceivedActions()
      await store.skipInFlightEffects()
      await store.skipReceivedActions(strict: false)
    }
    #expect(failures.map(\.message).count == 2)
  }

  @Test func nonExhaustiveChecksOnlyWhatIsAsserted() async {
    let failures = await collectIssues {
      let store = TestStore(initialState: Feature.State()) { Feature() }
      store.exhaustivity = .off
      await store.send(.increment)  // change not asserted: fine
      await store.send(.echo)
      await store.send(.ping(5)) { $0.count = 5 }  // the received .echoed was skipped
      await store.send(.increment) { $0.count = 7 }  // wrong: still a failure
    }
    #expect(failures.count == 1)
    #expect(failures.first?.message.contains("+   count: 6") == true)
  }

  @Test func receiveByCasePath() async {
    let failures = await collectIssues {
      let store = TestStore(initialState: Feature.State()) { Feature() }
      await store.send(.echo)
      await store.receive(\.echoed) { $0.text = "echoed" }
    }
    #expect(failures.isEmpty)
  }

  @Test func receiveByCasePathNamesTheCaseWhenItFails() async {
    let failures = await collectIssues {
      let store = TestStore(initialState: Feature.State()) { Feature() }
      await store.receive(\.ping, timeout: .milliseconds(20))
    }
    #expect(failures.count == 1)
    #expect(failures.first?.message.contains(#"Expected to receive an action at \.ping"#) == true)
  }

  @Test func receiveByCasePathAndValue() async {
    let failures = await collectIssues {
      let store = TestStore(initialState: Feature.State()) { Feature() }
      await store.send(.echo)
      await store.receive(\.echoed) { $0.text = "echoed" }
      await store.send(\.ping, 3) { $0.count = 3 }
    }
    #expect(failures.isEmpty)
  }

  @Test func assertChecksTheCurrentState() async {
    let failures = await collectIssues {
      let store = TestStore(initialState: Feature.State()) { Feature() }
      store.exhaustivity = .off
      await store.send(.increment)
      store.assert { $0.count = 1 }
      store.assert { $0.count = 2 }
    }
    #expect(failures.count == 1)
    #expect(failures.first?.message.contains("−   count: 2") == true)
  }
}
