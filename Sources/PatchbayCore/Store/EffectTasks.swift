import Synchronization

/// The running effects of one store, by cancellation id.
///
/// A `run` effect that is still running after its synchronous start gets a token, filed under
/// each cancellation id the effect is wrapped in, so `cancel(id:)` finds it; the token is
/// removed when the effect ends. Effects that finish during their synchronous start are never
/// filed, which keeps the common round trip free of locks.
@usableFromInline
package final class EffectTasks: Sendable {
  fileprivate struct Registry {
    var nextToken = 0
    var tasks: [Int: Task<Void, Never>] = [:]
    var idsByToken: [Int: [EffectID]] = [:]
    var tokensByID: [EffectID: Set<Int>] = [:]
    var originByToken: [Int: EffectOrigin] = [:]
    var cancelledBeforeStart: Set<Int> = []
    var isClosed = false
  }

  private let registry = LockedValue(Registry())
  private let running = Atomic<Int>(0)
  @usableFromInline let closed = Atomic<Bool>(false)
  /// Told of every id ``cancel(id:)`` cancels: a plugin tells its host, which cancels the
  /// same id in the instance's earlier generations (patchbay/host.h, "patchbay.effects/1").
  @usableFromInline let cancelled: (@Sendable (EffectID) -> Void)?

  /// Effects with nobody to tell of cancellations, or `cancelled`.
  @usableFromInline
  init(cancelled: (@Sendable (EffectID) -> Void)? = nil) {
    self.cancelled = cancelled
  }

  /// How many effects are running now.
  @usableFromInline
  package var count: Int { self.running.load(ordering: .acquiring) }

  /// Files a new effect under `ids` (and its `origin`, when its starter numbers effects)
  /// before it starts; returns its token, or nil when the store is gone and nothing may start.
  @usableFromInline
  func begin(ids: [EffectID], origin: EffectOrigin? = nil) -> Int? {
    self.registry.withValue { registry in
      guard !registry.isClosed else { return nil }
      let token = registry.nextToken
      registry.nextToken += 1
      registry.idsByToken[token] = ids
      if let origin { registry.originByToken[token] = origin }
      for id in ids { registry.tokensByID[id, default: []].insert(token) }
      self.running.add(1, ordering: .releasing)
      return token
    }
  }

  /// Keeps the task of a started effect so it can be cancelled; a task that already finished
  /// is not kept.
  @usableFromInline
  func attach(_ task: Task<Void, Never>, to token: Int) {
    let cancelNow = self.registry.withValue { registry -> Bool in
      if registry.cancelledBeforeStart.remove(token) != nil { return true }
      guard registry.idsByToken[token] != nil else { return false }
      registry.tasks[token] = task
      return false
    }
    if cancelNow { task.cancel() }
  }

  /// Marks an effect finished.
  @usableFromInline
  func end(_ token: Int) {
    self.registry.withValue { registry in
      registry.cancelledBeforeStart.remove(token)
      _ = registry.remove(token, running: self.running)
    }
  }

  /// The origins of the running effects that were started numbered, in order.
  package var origins: [EffectOrigin] {
    self.registry.withValue { Array($0.originByToken.values) }
      .sorted { ($0.action, $0.effect) < ($1.action, $1.effect) }
  }

  /// Whether any running effect is filed under `id`.
  @usableFromInline
  package func isRunning(id: some Hashable & Sendable) -> Bool {
    let id = EffectID(id)
    return self.registry.withValue { $0.tokensByID[id] != nil }
  }

  /// Cancels every running effect filed under `id`.
  ///
  /// A cancelled effect stops counting at once, before this returns: its task may still be
  /// unwinding, but it can no longer send (``Send`` checks for cancellation) and nothing waits
  /// for it. This is what lets a test end right after the action that cancelled an effect.
  @usableFromInline
  func cancel(id: EffectID) {
    let tasks = self.registry.withValue { registry -> [Task<Void, Never>] in
      guard let tokens = registry.tokensByID[id] else { return [] }
      return tokens.compactMap { registry.cancel($0, running: self.running) }
    }
    for task in tasks { task.cancel() }
    self.cancelled?(id)
  }

  /// Cancels every running effect filed under an id whose ``EffectID/key`` is `key`: what a
  /// later generation of a plugin instance cancelled.
  package func cancel(key: String) {
    let tasks = self.registry.withValue { registry -> [Task<Void, Never>] in
      let tokens = registry.tokensByID.filter { $0.key.key == key }.values.flatMap { $0 }
      return tokens.compactMap { registry.cancel($0, running: self.running) }
    }
    for task in tasks { task.cancel() }
  }

  /// Cancels every running effect filed under `id` (a value passed to
  /// ``Effect/cancellable(id:cancelInFlight:)``).
  @usableFromInline
  package func cancelEffects(id: some Hashable & Sendable) {
    self.cancel(id: EffectID(id))
  }

  /// Cancels every running effect; with `close`, no new effect may start afterwards.
  @usableFromInline
  package func cancelAll(close: Bool = false) {
    let tasks = self.registry.withValue { registry -> [Task<Void, Never>] in
      if close {
        registry.isClosed = true
        self.closed.store(true, ordering: .releasing)
      }
      return registry.idsByToken.keys.compactMap { registry.cancel($0, running: self.running) }
    }
    for task in tasks { task.cancel() }
  }
}

extension EffectTasks.Registry {
  /// Unfiles `token`; false when it was not filed (it ended, or was cancelled, already).
  mutating func remove(
    _ token: Int, running: borrowing Atomic<Int>
  ) -> (removed: Bool, task: Task<Void, Never>?) {
    guard let ids = self.idsByToken.removeValue(forKey: token) else { return (false, nil) }
    self.originByToken[token] = nil
    for id in ids {
      self.tokensByID[id]?.remove(token)
      if self.tokensByID[id]?.isEmpty == true { self.tokensByID[id] = nil }
    }
    running.subtract(1, ordering: .releasing)
    return (true, self.tasks.removeValue(forKey: token))
  }

  /// Unfiles `token` and returns its task to cancel; a token whose task is not attached yet is
  /// remembered, and its task cancelled when it attaches.
  mutating func cancel(_ token: Int, running: borrowing Atomic<Int>) -> Task<Void, Never>? {
    let (removed, task) = self.remove(token, running: running)
    if removed, task == nil { self.cancelledBeforeStart.insert(token) }
    return task
  }
}

/// Whether a started effect has finished, or the token it was filed under.
///
/// The effect and the code that started it race to settle it: the effect marks itself
/// finished; the starter, if the effect is still running, files it and records the token.
/// Whoever loses the race ends the token.
///
/// A `run` effect's own object (``RunOperation``) is its lifetime, so starting one allocates
/// nothing for it. That object can be started again once its task has ended (a reducer may
/// return the same effect value twice): whoever settles the race last makes it ``idle`` again
/// (``release()``). A start that finds it taken (``claim()`` fails: the same value is running
/// now) uses a lifetime of its own.
@usableFromInline
class EffectLifetime: @unchecked Sendable {
  @usableFromInline static var running: Int { -1 }
  @usableFromInline static var finished: Int { -2 }
  @usableFromInline static var idle: Int { -3 }
  @usableFromInline let state: Atomic<Int>

  /// A lifetime for one start, already claimed.
  @inlinable init() { self.state = Atomic(Self.running) }

  /// A lifetime to claim before each start.
  @inlinable init(idle: ()) { self.state = Atomic(Self.idle) }

  /// Takes an idle lifetime for a start; false when a start of it has not settled yet.
  @inlinable
  final func claim() -> Bool {
    self.state.compareExchange(
      expected: Self.idle, desired: Self.running, ordering: .acquiringAndReleasing
    ).exchanged
  }

  /// Called by the effect when it ends; returns the token to end, if the starter filed it
  /// (the starter is then done, and the lifetime idle again).
  @inlinable
  final func finish() -> Int? {
    let (exchanged, token) = self.state.compareExchange(
      expected: Self.running, desired: Self.finished, ordering: .acquiringAndReleasing
    )
    if exchanged { return nil }
    self.release()
    return token
  }

  @inlinable
  final var isFinished: Bool { self.state.load(ordering: .acquiring) == Self.finished }

  /// Called by the starter with the token it filed; false when the effect finished first.
  @inlinable
  final func file(_ token: Int) -> Bool {
    self.state.compareExchange(
      expected: Self.running, desired: token, ordering: .acquiringAndReleasing
    ).exchanged
  }

  /// Makes the lifetime idle: its start is settled and nobody reads it any more.
  @inlinable
  final func release() {
    self.state.store(Self.idle, ordering: .releasing)
  }
}
