import Patchbay
import Testing

@testable import PatchbayCore

@Suite struct ReducerTests {
  @Test func reduceIntoRunsTheFeatureLogicDirectly() {
    var state = Counter.State()
    let effect = Counter().reduce(into: &state, action: .increment)
    #expect(state.count == 1)
    guard case .none = effect.operation else {
      Issue.record("expected no effect")
      return
    }
  }

  @Test func reduceClosureAndEmptyReducer() {
    var state = 10
    _ = Reduce<Int, Int> { state, action in
      state += action
      return .none
    }.reduce(into: &state, action: 5)
    _ = EmptyReducer<Int, Int>().reduce(into: &state, action: 100)
    #expect(state == 15)
  }

  @Test func builderRunsReducersInOrder() {
    struct Log: Reducer {
      var body: some Reducer<[String], String> {
        Reduce { state, action in
          state.append("first \(action)")
          return .none
        }
        Reduce { state, action in
          state.append("second \(action)")
          return .none
        }
        CombineReducers {
          Reduce { state, action in
            state.append("third \(action)")
            return .none
          }
        }
      }
    }
    var state: [String] = []
    _ = Log().reduce(into: &state, action: "a")
    #expect(state == ["first a", "second a", "third a"])
  }

  @Test func builderSupportsConditionalsAndLoops() {
    struct Configurable: Reducer {
      let double: Bool
      let extraSteps: Int
      var body: some Reducer<Int, Void> {
        if self.double {
          Reduce { state, _ in
            state *= 2
            return .none
          }
        } else {
          Reduce { state, _ in
            state += 1
            return .none
          }
        }
        for _ in 0..<self.extraSteps {
          Reduce { state, _ in
            state += 10
            return .none
          }
        }
      }
    }
    var doubled = 3
    _ = Configurable(double: true, extraSteps: 2).reduce(into: &doubled, action: ())
    #expect(doubled == 26)
    var incremented = 3
    _ = Configurable(double: false, extraSteps: 0).reduce(into: &incremented, action: ())
    #expect(incremented == 4)
  }

  @Test func storeEvaluatesBodyOnce() {
    final class Counts: @unchecked Sendable { var bodies = 0 }
    struct Counted: Reducer {
      let counts: Counts
      var body: some Reducer<Int, Void> {
        let _ = self.counts.bodies += 1
        Reduce { state, _ in
          state += 1
          return .none
        }
      }
    }
    let counts = Counts()
    let store = Store(initialState: 0) { Counted(counts: counts) }
    for _ in 0..<5 { store.send(()) }
    #expect(store.state == 5)
    #expect(counts.bodies == 1)
  }
}
