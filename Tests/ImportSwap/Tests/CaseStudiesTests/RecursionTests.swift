import Foundation
import PatchbayTesting  // with TCA: import ComposableArchitecture
import Testing

@testable import CaseStudies

@MainActor
struct RecursionTests {
  @Test
  func rowsFiveLevelsDeep() async {
    let store = TestStore(initialState: Nested.State(id: UUID(100))) {
      Nested()
    } withDependencies: {
      $0.uuid = .incrementing
    }

    await store.send(.addRowButtonTapped) {
      $0.rows = [Nested.State(id: UUID(0))]
    }
    await store.send(\.rows[id: UUID(0)].addRowButtonTapped) {
      $0.rows[id: UUID(0)]?.rows = [Nested.State(id: UUID(1))]
    }
    await store.send(\.rows[id: UUID(0)].rows[id: UUID(1)].addRowButtonTapped) {
      $0.rows[id: UUID(0)]?.rows[id: UUID(1)]?.rows = [Nested.State(id: UUID(2))]
    }
    await store.send(\.rows[id: UUID(0)].rows[id: UUID(1)].rows[id: UUID(2)].addRowButtonTapped) {
      $0.rows[id: UUID(0)]?.rows[id: UUID(1)]?.rows[id: UUID(2)]?.rows = [
        Nested.State(id: UUID(3))
      ]
    }
    await store.send(
      \.rows[id: UUID(0)].rows[id: UUID(1)].rows[id: UUID(2)].rows[id: UUID(3)]
        .nameTextFieldChanged,
      "Fifth"
    ) {
      $0.rows[id: UUID(0)]?.rows[id: UUID(1)]?.rows[id: UUID(2)]?.rows[id: UUID(3)]?.name =
        "Fifth"
    }
    await store.send(\.rows[id: UUID(0)].deleteRowButtonTapped, UUID(1)) {
      $0.rows[id: UUID(0)]?.rows = []
    }
  }

  @Test
  func twoCounters() async {
    let store = TestStore(initialState: TwoCounters.State()) {
      TwoCounters()
    }

    await store.send(\.counter1.incrementButtonTapped) {
      $0.counter1.count = 1
    }
    await store.send(\.counter2.decrementButtonTapped) {
      $0.counter2.count = -1
    }
  }
}
