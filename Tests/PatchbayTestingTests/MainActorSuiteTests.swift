import PatchbayTesting
import Testing

/// TCA's tests are `@MainActor`; a test store must work from there in Swift 6 mode, with
/// assertion closures that capture the test's own (non-Sendable) values.
@MainActor
@Suite struct MainActorSuiteTests {
  final class Expectations {  // not Sendable, on purpose
    var count = 1
  }

  @Test func sendAndReceiveFromTheMainActor() async {
    let expectations = Expectations()
    let store = TestStore(initialState: Feature.State()) { Feature() }
    await store.send(.increment) { $0.count = expectations.count }
    expectations.count = 2
    await store.send(.increment) { $0.count = expectations.count }
    await store.send(.echo)
    await store.receive(.echoed) { $0.text = "echoed" }
    await store.send(\.ping, 5) { $0.count = 5 }
    MainActor.assertIsolated()
  }
}
