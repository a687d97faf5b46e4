import Synchronization

/// The running effects of one store, by cancellation id.
///
/// Every `run` effect gets a token when it starts. The token is filed under each cancellation
/// id the effect is wrapped in, so `cancel(id:)` finds it, and is removed when the effect ends.
public final class EffectTasks: Sendable {
  private struct Registry {
    var nextToken = 0
    var tasks: [Int: Task<Void, Never>] = [:]
    var idsByToken: [Int: [EffectID]] = [:]
    var tokensByID: [EffectID: Set<Int>] = [:]
    var cancelledBeforeStart: Set<Int> = []
    var isClosed = false
  }

  private let registry = Mutex(Registry())
  private let running = Atomic<Int>(0)

  /// How many effects are running now.
  public var count: Int { self.running.load(ordering: .acquiring) }

  /// Files a new effect under `ids` before it starts; returns its token, or nil when the store
  /// is gone and nothing may start.
  func begin(ids: [EffectID]) -> Int? {
    self.registry.withLock { registry in
      guard !registry.isClosed else { return nil }
      let token = registry.nextToken
      registry.nextToken += 1
      registry.idsByToken[token] = ids
      for id in ids { registry.tokensByID[id, default: []].insert(token) }
      self.running.add(1, ordering: .releasing)
      return token
    }
  }

  /// Keeps the task of a started effect so it can be cancelled; a task that already finished
  /// is not kept.
  func attach(_ task: Task<Void, Never>, to token: Int) {
    let cancelNow = self.registry.withLock { registry -> Bool in
      guard registry.idsByToken[token] != nil else { return false }
      if registry.cancelledBeforeStart.remove(token) != nil { return true }
      registry.tasks[token] = task
      return false
    }
    if cancelNow { task.cancel() }
  }

  /// Marks an effect finished.
  func end(_ token: Int) {
    self.registry.withLock { registry in
      guard let ids = registry.idsByToken.removeValue(forKey: token) else { return }
      registry.tasks[token] = nil
      registry.cancelledBeforeStart.remove(token)
      for id in ids {
        registry.tokensByID[id]?.remove(token)
        if registry.tokensByID[id]?.isEmpty == true { registry.tokensByID[id] = nil }
      }
      self.running.subtract(1, ordering: .releasing)
    }
  }

  /// Cancels every running effect filed under `id`.
  func cancel(id: EffectID) {
    let tasks = self.registry.withLock { registry -> [Task<Void, Never>] in
      guard let tokens = registry.tokensByID[id] else { return [] }
      var tasks: [Task<Void, Never>] = []
      for token in tokens {
        if let task = registry.tasks[token] {
          tasks.append(task)
        } else {
          registry.cancelledBeforeStart.insert(token)
        }
      }
      return tasks
    }
    for task in tasks { task.cancel() }
  }

  /// Cancels every running effect; with `close`, no new effect may start afterwards.
  public func cancelAll(close: Bool = false) {
    let tasks = self.registry.withLock { registry -> [Task<Void, Never>] in
      if close { registry.isClosed = true }
      for token in registry.idsByToken.keys where registry.tasks[token] == nil {
        registry.cancelledBeforeStart.insert(token)
      }
      return Array(registry.tasks.values)
    }
    for task in tasks { task.cancel() }
  }
}
