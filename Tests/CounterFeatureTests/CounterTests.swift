import CounterFeature
import PatchbayEncoding
import PatchbayPlugin
import PatchbayTesting
import Testing

/// The Counter plugin's feature, tested the TCA way, in process.
@Suite struct CounterTests {
  @Test func stepsAndReset() async {
    let store = TestStore(initialState: Counter.initialState) { Counter() }
    await store.send(.setStep(by: 5)) { $0.step = 5 }
    await store.send(.increment) { $0.count = 5 }
    await store.send(.decrement) { $0.count = 0 }
    await store.send(.increment) { $0.count = 5 }
    await store.send(.reset) { $0.count = 0 }
  }

  @Test func incrementLaterWaitsOnTheClock() async {
    let clock = TestClock()
    let store = TestStore(initialState: Counter.initialState) {
      Counter()
    } withDependencies: {
      $0.continuousClock = clock
    }
    await store.send(.incrementLater(ms: 250)) { $0.pending = 1 }
    await clock.advance(by: .milliseconds(249))
    await clock.advance(by: .milliseconds(1))
    await store.receive(.delayedIncrement) {
      $0.pending = 0
      $0.count = 1
    }
  }

  /// Tests that swap while an effect runs send `incrementLater(ms: 86400000)` and count on it
  /// still running when they look, however slow the machine.
  @Test func aDelayOfADayWaitsTheWholeDay() async {
    let clock = TestClock()
    let store = TestStore(initialState: Counter.initialState) {
      Counter()
    } withDependencies: {
      $0.continuousClock = clock
    }
    await store.send(.incrementLater(ms: 86_400_000)) { $0.pending = 1 }
    await clock.advance(by: .milliseconds(86_399_999))
    await store.send(.increment) { $0.count = 1 }  // nothing came yet: it still waits
    await clock.advance(by: .milliseconds(1))
    await store.receive(.delayedIncrement) {
      $0.pending = 0
      $0.count = 2
    }
  }

  @Test func rampUpSendsStepsAndIncrementsInOrder() async {
    let store = TestStore(initialState: Counter.initialState) { Counter() }
    await store.send(.rampUp(times: 2))
    await store.receive(.setStep(by: 1))
    await store.receive(.increment) { $0.count = 1 }
    await store.receive(.setStep(by: 2)) { $0.step = 2 }
    await store.receive(.increment) { $0.count = 3 }
  }

  @Test func migratesCounterAltsSchema2() throws {
    let migrated = try Counter.migrate(
      from: 2, .record(fields: ("value", 9), ("stride", 2), ("history", .list([1])), ("waiting", 1))
    )
    #expect(migrated == .record(fields: ("count", 9), ("step", 2), ("pending", 1)))
    #expect(throws: PluginFeatureError.self) { try Counter.migrate(from: 5, migrated) }
  }

  @Test func rendersCountAndStep() {
    #expect(
      Counter.render(Counter.State(count: 3, step: 2, pending: 1))
        == "Count: 3\nStep:  2\nWaiting for 1 delayed increment(s)…")
  }
}
