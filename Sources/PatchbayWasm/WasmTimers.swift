import Dispatch
import Patchbay

/// The delayed sends of one wasm feature instance (the import `patchbay.send_after`): a wasm
/// plugin has no threads to sleep on, so it asks the host to send an action back to it after a
/// delay, and the host holds the timer. `Effect.send(.delayedIncrement, after: 250)` in the
/// Embedded Swift SDK is one:
///
///     timers.start(after: 250, action) { action, finished in      // the edge does this
///       context.deliver(action)
///       context.executor.enqueue(finished)
///     }
///     timers.count        // 1: the instance runs an effect (`settle` waits for it)
///     timers.cancelAll()  // cancel_effects, destroy
///
/// A timer may be filed under a key (`patchbay.send_after_keyed`, the SDK's
/// `.send(.tick, after: 500).cancellable(id: "tick")`), which `cancel(key:)` stops
/// (`patchbay.cancel_keyed`, `.cancel(id: "tick")`, and an earlier generation's
/// `cancel_effects_keyed` when the new code cancels the key).
///
/// Timers belong to the instance, not to its module instance: one rebuilt after a trap keeps
/// them, and an instance swapped out keeps running them (an earlier generation, as a native
/// plugin's effects do) until they fire or are cancelled.
///
/// They fire on a serial dispatch queue of their own, never on the cooperative pool or
/// Dispatch's width-limited global queues, so threads blocked elsewhere (a busy parallel test
/// run) cannot starve them; firing only hands the action to the app queue.
final class WasmTimers: Sendable {
  private let pending = LockedValue<(next: Int, items: [Int: Timer])>((0, [:]))
  private struct Timer {
    let item: DispatchWorkItem
    let key: String?
  }
  private static let queue = DispatchQueue(label: "dev.patchbay.wasm-timers")

  /// How many timers an instance may have waiting: a plugin that asks for more (a loop of
  /// delayed sends) traps, named, rather than fill the host's memory.
  static let limit = 1_024

  /// How many timers have not fired yet.
  var count: Int { self.pending.withValue { $0.items.count } }

  /// Sends `action` through `deliver` after `milliseconds`, unless cancelled first (by `key`,
  /// when it has one, or all at once); false,
  /// starting nothing, when ``limit`` timers wait already. The timer counts until `deliver`
  /// calls the `finished` it is given, which it does once the action has reached the app queue
  /// (the edge: in a job queued after the delivery's own). Until then a swap keeps the
  /// instance as an earlier generation, whose inbox the action goes through, and
  /// `AppRuntime.settle` waits.
  func start(
    after milliseconds: UInt32, _ action: [UInt8], key: String? = nil,
    deliver:
      @escaping @Sendable (_ action: [UInt8], _ finished: @escaping @Sendable () -> Void)
      -> Void
  ) -> Bool {
    self.pending.withValue { pending in
      guard pending.items.count < Self.limit else { return false }
      let id = pending.next
      pending.next += 1
      let item = DispatchWorkItem { [self] in
        guard self.pending.withValue({ $0.items[id] != nil }) else { return }
        deliver(action) { self.pending.withValue { _ = $0.items.removeValue(forKey: id) } }
      }
      pending.items[id] = Timer(item: item, key: key)
      Self.queue.asyncAfter(deadline: .now() + .milliseconds(Int(milliseconds)), execute: item)
      return true
    }
  }

  /// Where the next timer's number starts: after a call that trapped, ``cancel(from:)`` the
  /// mark taken before it stops what the failed call started.
  var mark: Int { self.pending.withValue { $0.next } }

  /// Stops the timers started since `mark` that have not fired.
  func cancel(from mark: Int) {
    let items = self.pending.withValue { pending in
      let started = pending.items.filter { $0.key >= mark }
      for id in started.keys { pending.items[id] = nil }
      return started.values.map(\.item)
    }
    for item in items { item.cancel() }
  }

  /// Stops the timers filed under `key` that have not fired.
  func cancel(key: String) {
    let items = self.pending.withValue { pending in
      let keyed = pending.items.filter { $0.value.key == key }
      for id in keyed.keys { pending.items[id] = nil }
      return keyed.values.map(\.item)
    }
    for item in items { item.cancel() }
  }

  /// Stops every timer that has not fired.
  func cancelAll() {
    let items = self.pending.withValue { pending in
      defer { pending.items = [:] }
      return pending.items.values.map(\.item)
    }
    for item in items { item.cancel() }
  }
}
