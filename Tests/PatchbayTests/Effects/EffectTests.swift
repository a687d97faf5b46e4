import Patchbay
import PatchbayTesting
import Synchronization
import Testing

@testable import PatchbayCore

private struct Sequencer: Reducer {
  struct State: Equatable { var log: [String] = [] }
  @CasePathable enum Action: Equatable {
    case merge, concatenate, mapped, fail, failHandled, failMapped
    case record(String)
  }
  @Dependency(\.continuousClock) var clock
  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .merge:
      return .merge(.send(.record("a")), .send(.record("b")))
    case .concatenate:
      return .concatenate(
        .run { [clock] send in
          try await clock.sleep(for: .seconds(2))
          await send(.record("slow first"))
        },
        .run { send in await send(.record("fast second")) }
      )
    case .mapped:
      return Effect<String>.send("inner").map { .record("mapped \($0)") }
    case .fail:
      return failingRun()
    case .failMapped:
      return Effect<String>.run { _ in
        throw Failure()
      } catch: { error, send in
        await send("caught \(error)")
      }
      .map { .record("mapped \($0)") }
    case .failHandled:
      return .run { _ in
        throw Failure()
      } catch: { error, send in
        await send(.record("caught \(error)"))
      }
    case .record(let entry):
      state.log.append(entry)
      return .none
    }
  }
  struct Failure: Error, CustomStringConvertible { var description: String { "boom" } }
}

/// `.fail`'s effect, and the line of its `Effect.run`, where its unhandled error is reported.
private let failLine: UInt = #line + 2
private func failingRun() -> Effect<Sequencer.Action> {
  .run { _ in throw Sequencer.Failure() }
}

private struct Search: Reducer {
  struct State: Equatable { var results: [String] = [] }
  @CasePathable enum Action: Equatable { case query(String), results(String), cancel }
  enum CancelID { case search }
  @Dependency(\.continuousClock) var clock
  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .query(let query):
      return .run { [clock] send in
        try await clock.sleep(for: .milliseconds(300))
        await send(.results(query))
      }
      .cancellable(id: CancelID.search, cancelInFlight: true)
    case .results(let result):
      state.results.append(result)
      return .none
    case .cancel:
      return .cancel(id: CancelID.search)
    }
  }
}

@Suite struct EffectTests {
  @Test func mergeSendsInOrderWritten() async {
    let store = TestStore(initialState: Sequencer.State()) { Sequencer() }
    await store.send(.merge)
    await store.receive(.record("a")) { $0.log = ["a"] }
    await store.receive(.record("b")) { $0.log = ["a", "b"] }
  }

  @Test func concatenateWaitsForEachEffect() async {
    let clock = TestClock()
    let store = TestStore(initialState: Sequencer.State()) {
      Sequencer()
    } withDependencies: {
      $0.continuousClock = clock
    }
    await store.send(.concatenate)
    await clock.advance(by: .seconds(2))
    await store.receive(.record("slow first")) { $0.log = ["slow first"] }
    await store.receive(.record("fast second")) { $0.log = ["slow first", "fast second"] }
    await store.finish()
  }

  @Test func mapTransformsSentActions() async {
    let store = TestStore(initialState: Sequencer.State()) { Sequencer() }
    await store.send(.mapped)
    await store.receive(.record("mapped inner")) { $0.log = ["mapped inner"] }
  }

  @Test func unhandledErrorIsReportedWithTheEffectsLocation() {
    let store = Store(initialState: Sequencer.State()) { Sequencer() }
    // The effect throws before its first suspension, so the issue is reported inside `send`.
    let issues = collectIssues {
      store.send(.fail)
    }
    #expect(issues.count == 1)
    #expect(issues.first?.contains("An 'Effect.run' threw an unhandled error: boom") == true)
    #expect(issues.first?.contains("pass 'catch:'") == true)
  }

  @Test func unhandledErrorNamesTheLineOfItsRun() {
    let store = Store(initialState: Sequencer.State()) { Sequencer() }
    let locations = collectIssueLocations { store.send(.fail) }
    #expect(locations == ["PatchbayTests/EffectTests.swift:\(failLine)"])
  }

  /// The handler of a mapped effect sends through the map, as the operation does.
  @Test func aMappedEffectsErrorHandlerSendsThroughTheMap() async {
    let store = TestStore(initialState: Sequencer.State()) { Sequencer() }
    await store.send(.failMapped)
    await store.receive(.record("mapped caught boom")) { $0.log = ["mapped caught boom"] }
  }

  @Test func errorHandlerTurnsErrorsIntoActions() async {
    let store = TestStore(initialState: Sequencer.State()) { Sequencer() }
    await store.send(.failHandled)
    await store.receive(.record("caught boom")) { $0.log = ["caught boom"] }
  }

  @Test func cancelInFlightKeepsOnlyTheLatest() async {
    let clock = TestClock()
    let store = TestStore(initialState: Search.State()) {
      Search()
    } withDependencies: {
      $0.continuousClock = clock
    }
    await store.send(.query("a"))
    await clock.advance(by: .milliseconds(100))
    await store.send(.query("ab"))
    await clock.advance(by: .milliseconds(100))
    await store.send(.query("abc"))
    await clock.advance(by: .milliseconds(300))
    await store.receive(.results("abc")) { $0.results = ["abc"] }
    await store.finish()
  }

  @Test func cancelStopsTheEffect() async {
    let clock = TestClock()
    let store = TestStore(initialState: Search.State()) {
      Search()
    } withDependencies: {
      $0.continuousClock = clock
    }
    await store.send(.query("a"))
    await store.send(.cancel)
    await clock.advance(by: .seconds(1))
    await store.finish()
  }

  @Test func cancellableNoneWithCancelInFlightStillCancels() async {
    let effect = Effect<Int>.none.cancellable(id: "x", cancelInFlight: true)
    guard case .cancel = effect.operation else {
      Issue.record("expected a cancel effect, got \(effect.operation)")
      return
    }
  }
}
