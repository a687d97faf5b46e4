import Dispatch
import Patchbay

/// The delayed sends of one wasm feature instance (the import `patchbay.send_after`): a wasm
/// plugin has no threads to sleep on, so it asks the host to send an action back to it after a
/// delay, and the host holds the timer. `Effect.send(.delayedIncrement, after: 250)` in the
/// Embedded Swift SDK is one:
///
///     timers.start(after: 250, action) { context.deliver($0) }   // the edge does this
///     timers.count        // 1: the instance runs an effect (`settle` waits for it)
///     timers.cancelAll()  // cancel_effects, destroy
///
/// Timers belong to the instance, not to its module instance: one rebuilt after a trap keeps
/// them, and an instance swapped out keeps running them (an earlier generation, as a native
/// plugin's effects do) until they fire or are cancelled.
///
/// They fire on a serial dispatch queue of their own, never on the cooperative pool or
/// Dispatch's width-limited global queues, so threads blocked elsewhere (a busy parallel test
/// run) cannot starve them; firing only hands the action to the app queue.
final class WasmTimers: Sendable {
  private let pending = LockedValue<(next: Int, items: [Int: DispatchWorkItem])>((0, [:]))
  private static let queue = DispatchQueue(label: "dev.patchbay.wasm-timers")

  /// How many timers have not fired yet.
  var count: Int { self.pending.withValue { $0.items.count } }

  /// Sends `action` through `deliver` after `milliseconds`, unless cancelled first. The action
  /// is delivered before the timer stops counting, so that whoever waits for the instance's
  /// effects to end (`AppRuntime.settle`) finds the action queued when they have.
  func start(
    after milliseconds: UInt32, _ action: [UInt8], deliver: @escaping @Sendable ([UInt8]) -> Void
  ) {
    self.pending.withValue { pending in
      let id = pending.next
      pending.next += 1
      let item = DispatchWorkItem { [self] in
        guard self.pending.withValue({ $0.items[id] != nil }) else { return }
        deliver(action)
        self.pending.withValue { _ = $0.items.removeValue(forKey: id) }
      }
      pending.items[id] = item
      Self.queue.asyncAfter(deadline: .now() + .milliseconds(Int(milliseconds)), execute: item)
    }
  }

  /// Stops every timer that has not fired.
  func cancelAll() {
    let items = self.pending.withValue { pending in
      defer { pending.items = [:] }
      return Array(pending.items.values)
    }
    for item in items { item.cancel() }
  }
}
