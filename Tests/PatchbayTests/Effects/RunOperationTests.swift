import Patchbay
import PatchbayTestWaiting
import Synchronization
import Testing

@testable import PatchbayCore

/// A `run` effect settles its task's lifetime in its own object (``RunOperation``), so the
/// same effect value may be started again, or twice at once: each start must run, be filed
/// while it runs and end, and the object must be free for the next start afterwards.
@Suite(.highPriority) struct RunOperationTests {
  @Test func anEffectValueStartedTwiceAtOnceRunsTwice() async {
    let gate = Gate()
    let (runner, tasks, sent) = Self.runner()
    let effect = Effect<Int>.run { send in
      await gate.wait()
      await send(1)
    }
    runner.start(effect)
    runner.start(effect)
    #expect(tasks.count == 2)
    gate.open()
    #expect(await eventually { tasks.count == 0 })
    #expect(sent.withValue { $0 } == [1, 1])
    #expect(Self.isIdle(effect))
  }

  @Test func anEffectThatEndsInlineIsFreeForItsNextStart() {
    let (runner, tasks, sent) = Self.runner()
    let effect = Effect<Int>.run { send in await send(7) }
    runner.start(effect)
    #expect(Self.isIdle(effect))
    runner.start(effect)
    #expect(tasks.count == 0)
    #expect(sent.withValue { $0 } == [7, 7])
  }

  @Test func aFiledEffectIsFreeForItsNextStartOnceItEnds() async {
    let gate = Gate()
    let (runner, tasks, sent) = Self.runner()
    let effect = Effect<Int>.run { send in
      await gate.wait()
      await send(2)
    }
    runner.start(effect)
    #expect(!Self.isIdle(effect))
    gate.open()
    #expect(await eventually { tasks.count == 0 })
    #expect(Self.isIdle(effect))
    runner.start(effect)
    #expect(await eventually { tasks.count == 0 && sent.withValue { $0.count } == 2 })
  }

  @Test func aCancelledStartLeavesTheEffectFreeOnceItEnds() async {
    let gate = Gate()
    let (runner, tasks, _) = Self.runner()
    let effect = Effect<Int>.run { _ in await gate.wait() }.cancellable(id: "slow")
    runner.start(effect)
    tasks.cancel(id: EffectID("slow"))
    #expect(tasks.count == 0)
    gate.open()
    guard case .cancellable(_, _, let inner) = effect.operation else {
      Issue.record("expected a cancellable effect, got \(effect.operation)")
      return
    }
    #expect(await eventually { Self.isIdle(inner) })
  }

  /// A runner of `Int` actions that records what its effects send.
  private static func runner() -> (EffectRunner<Int>, EffectTasks, LockedValue<[Int]>) {
    let tasks = EffectTasks()
    let sent = LockedValue<[Int]>([])
    let runner = EffectRunner<Int>(tasks: tasks) { action in sent.withValue { $0.append(action) } }
    return (runner, tasks, sent)
  }

  /// Whether `effect`, a `run`, may be claimed by its next start.
  private static func isIdle(_ effect: Effect<Int>) -> Bool {
    guard case .run(let run) = effect.operation else { return false }
    return run.state.load(ordering: .acquiring) == EffectLifetime.idle
  }
}

/// Holds effects at `wait()` until `open()`.
private final class Gate: Sendable {
  private let state = Mutex<(isOpen: Bool, waiting: [CheckedContinuation<Void, Never>])>(
    (false, []))

  func wait() async {
    await withCheckedContinuation { continuation in
      let isOpen = self.state.withLock { state in
        if !state.isOpen { state.waiting.append(continuation) }
        return state.isOpen
      }
      if isOpen { continuation.resume() }
    }
  }

  func open() {
    let waiting = self.state.withLock { state in
      state.isOpen = true
      defer { state.waiting = [] }
      return state.waiting
    }
    for continuation in waiting { continuation.resume() }
  }
}
