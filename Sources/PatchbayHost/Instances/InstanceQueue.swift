import DequeModule
import Synchronization

/// The serial FIFO queue of one plugin feature instance: its [main-thread].
///
/// Sends (from the host, and from the plugin's effects through `host->send`) append to the
/// queue; the first sender that finds it idle drains it, calling `reduce` for one action at a
/// time. Every call into the instance — `reduce`, and `withInstance` for snapshot, render,
/// cancel and destroy — holds the instance lock, so the plugin never sees two at once.
///
/// Unlike a `Store`, a plugin's reduce may send back synchronously (its effects start inline):
/// sends take only the queue lock, never the instance lock, so that is queued, not deadlocked.
final class InstanceQueue: Sendable {
  private struct Pending: ~Copyable {
    var actions = Deque<([UInt8], ActionSource)>()
    var isDraining = false
  }

  private let pending = Mutex(Pending())
  private let instanceLock = Mutex<UInt64>(0)
  private let reduce: @Sendable ([UInt8], ActionSource) -> Bool

  /// `reduce` applies one action to the instance; it returns whether the plugin took it.
  init(reduce: @escaping @Sendable ([UInt8], ActionSource) -> Bool) {
    self.reduce = reduce
  }

  /// Whether nothing waits in the queue and nothing is being reduced.
  var isIdle: Bool {
    self.pending.withLock { $0.actions.isEmpty && !$0.isDraining }
  }

  /// How many actions the instance took.
  var reducedCount: UInt64 { self.instanceLock.withLock { $0 } }

  /// Queues an action and drains the queue unless another thread already does.
  func send(_ action: [UInt8], source: ActionSource) {
    let drains = self.pending.withLock { pending in
      pending.actions.append((action, source))
      if pending.isDraining { return false }
      pending.isDraining = true
      return true
    }
    guard drains else { return }
    while let (next, source) = self.next() {
      self.instanceLock.withLock { reduced in
        if self.reduce(next, source) { reduced &+= 1 }
      }
    }
  }

  private func next() -> ([UInt8], ActionSource)? {
    self.pending.withLock { pending in
      if let next = pending.actions.popFirst() { return next }
      pending.isDraining = false
      return nil
    }
  }

  /// Runs `body` with exclusive access to the instance, between reduces.
  func withInstance<R>(_ body: () throws -> R) rethrows -> R {
    try self.instanceLock.withLock { _ in
      nonisolated(unsafe) let result = try body()
      return result
    }
  }
}

/// Where an action came from: a command of the host, an effect of the plugin, MIDI input
/// ("patchbay.midi/1"), or an event its processor sent (patchbay/process.h).
public enum ActionSource: String, Sendable, CaseIterable {
  case command
  case effect
  case midi
  case processor
}
