import CounterAltFeature
import PatchbayEncoding
import PatchbayPlugin
import PatchbayTesting
import Testing

/// CounterAlt, the alternative implementation of dev.patchbay.counter, tested in process.
@Suite struct CounterAltTests {
  @Test func keepsTheLastFiveValues() async {
    let store = TestStore(initialState: CounterAlt.initialState) { CounterAlt() }
    await store.send(.setStep(by: 2)) { $0.stride = 2 }
    await store.send(.increment) {
      $0.value = 2
      $0.history = [0]
    }
    for expected in [4, 6, 8, 10] {
      await store.send(.increment) {
        $0.history = Array(($0.history + [$0.value]).suffix(5))
        $0.value = expected
      }
    }
    await store.send(.reset) {
      $0.history = [2, 4, 6, 8, 10]
      $0.value = 0
    }
    #expect(CounterAlt.render(store.state) == "Value 0 (step 2)\nWas: 2 → 4 → 6 → 8 → 10")
  }

  @Test func migratesCountersSchema1() throws {
    // The delayed increment in flight is kept: its effect goes on across the swap.
    let migrated = try CounterAlt.migrate(
      from: 1, .record(fields: ("count", 7), ("step", 3), ("pending", 1)))
    #expect(
      migrated
        == .record(fields: ("value", 7), ("stride", 3), ("history", .list([])), ("waiting", 1)))
    let state = try WireValueDecoder().decode(CounterAlt.State.self, from: migrated)
    #expect(state == CounterAlt.State(value: 7, stride: 3, waiting: 1))
  }

  @Test func refusesWhatItCannotMigrate() {
    #expect(throws: PluginFeatureError.self) {
      try CounterAlt.migrate(from: 3, .record(fields: ("count", 1)))
    }
    #expect(throws: PluginFeatureError.self) {
      try CounterAlt.migrate(from: 1, .record(fields: ("count", "seven")))
    }
  }
}
