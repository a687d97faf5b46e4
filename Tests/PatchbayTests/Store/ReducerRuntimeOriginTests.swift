import Patchbay
import Synchronization
import Testing

@testable import PatchbayCore

/// A runtime numbers the effects each action starts, and starts some of them again on a saved
/// state: what an isolated plugin's new process does after a crash (EffectOrigin.swift).
@Suite struct ReducerRuntimeOriginTests {
  /// `start` sends `started`, runs one effect that ends at once (effect 0) and one that runs
  /// until `stop` (effect 1), and counts itself in the state.
  struct Timer: Reducer {
    struct State: Equatable { var starts = 0 }
    enum Action: Equatable, Sendable { case start, stop, started }
    enum CancelID { case long }

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case .start:
        state.starts += 1
        return .merge(
          .send(.started),
          .run { _ in },
          .run { _ in try? await Task.sleep(for: .seconds(3600)) }.cancellable(id: CancelID.long))
      case .stop:
        return .cancel(id: CancelID.long)
      case .started:
        return .none
      }
    }
  }

  /// The actions a runtime sent.
  final class Sent: Sendable {
    private let actions = Mutex<[Timer.Action]>([])
    func append(_ action: Timer.Action) { self.actions.withLock { $0.append(action) } }
    var all: [Timer.Action] { self.actions.withLock { $0 } }
  }

  /// A runtime whose sends are kept.
  static func runtime(_ state: Timer.State = .init()) -> (
    ReducerRuntime<Timer.State, Timer.Action>, Sent
  ) {
    let sent = Sent()
    let runtime = ReducerRuntime(initialState: state, reducer: Timer()) { sent.append($0) }
    return (runtime, sent)
  }

  @Test func aReduceFilesItsLongLivedEffectsUnderItsNumber() {
    let (runtime, sent) = Self.runtime()
    runtime.reduce(.start, number: 7)
    #expect(runtime.effectOrigins == [EffectOrigin(action: 7, effect: 1)])
    #expect(sent.all == [.started])

    runtime.reduce(.stop, number: 8)
    #expect(runtime.effectOrigins == [])
    #expect(runtime.runningEffects == 0)
  }

  @Test func aRestartStartsOnlyTheListedEffectsAndSendsNothing() {
    let (runtime, sent) = Self.runtime(Timer.State(starts: 5))
    runtime.restartEffects(of: .start, reducedOn: Timer.State(), effects: [1], number: 1)
    #expect(runtime.effectOrigins == [EffectOrigin(action: 1, effect: 1)])
    #expect(runtime.runningEffects == 1)
    #expect(sent.all.isEmpty)
    #expect(runtime.state == Timer.State(starts: 5))  // the reduce ran on a copy

    // The restarted effect is filed under its id: the code's own `stop` cancels it.
    runtime.reduce(.stop, number: 2)
    #expect(runtime.runningEffects == 0)
  }

  @Test func aRestartOfNoListedEffectStartsNothing() {
    let (runtime, sent) = Self.runtime()
    runtime.restartEffects(of: .start, reducedOn: Timer.State(), effects: [], number: 1)
    #expect(runtime.runningEffects == 0)
    #expect(sent.all.isEmpty)
  }

  /// A runtime makes its effects' bookkeeping at its first effect; a cancel before any effect
  /// ran still reaches its earlier generations, and a plain send makes none.
  @Test func aCancelBeforeAnyEffectStillReachesEarlierGenerations() {
    let cancelled = Mutex<[String]>([])
    let sent = Sent()
    let runtime = ReducerRuntime(
      initialState: Timer.State(), reducer: Timer(),
      generations: EffectGenerations(
        cancelled: { id in cancelled.withLock { $0.append(id.key) } },
        sendFrom: { action, _ in sent.append(action) })
    ) { sent.append($0) }
    runtime.reduce(.started, number: 1)
    #expect(runtime.madeEffects.load() == nil)
    runtime.reduce(.stop, number: 2)
    #expect(cancelled.withLock { $0 } == [EffectID(Timer.CancelID.long).key])
    #expect(runtime.runningEffects == 0)
    runtime.reduce(.start, number: 3)
    #expect(runtime.runningEffects == 1)
    runtime.cancelEffects()
  }
}
