import Synchronization

/// Starts the effects a reducer returned, for one store.
///
/// `send` effects go straight to the store's queue; `run` effects start inline on the store's
/// queue (see ``Effect/run(priority:operation:catch:fileID:filePath:line:column:)``) and are
/// filed in ``EffectTasks`` until they end.
@usableFromInline
struct EffectRunner<Action>: Sendable {
  @usableFromInline let tasks: EffectTasks
  @usableFromInline let enqueue: @Sendable (Action) -> Void
  @usableFromInline let handleRequest: @Sendable (any Sendable) -> Void
  /// Where effects continue after their first suspension; nil for the global executor.
  @usableFromInline let executor: SettlingExecutor?
  /// Where a cancellable effect's actions go, with its ids, when the receiver wants them (a
  /// plugin's host names the effect when the action reaches code that lacks it); nil: to
  /// `enqueue`.
  @usableFromInline let enqueueFromEffect: (@Sendable (Action, [EffectID]) -> Void)?

  @usableFromInline
  init(
    tasks: EffectTasks,
    enqueue: @escaping @Sendable (Action) -> Void,
    enqueueFromEffect: (@Sendable (Action, [EffectID]) -> Void)? = nil,
    handleRequest: @escaping @Sendable (any Sendable) -> Void = unhandledRequest,
    executor: SettlingExecutor? = nil
  ) {
    self.tasks = tasks
    self.enqueue = enqueue
    self.enqueueFromEffect = enqueueFromEffect
    self.handleRequest = handleRequest
    self.executor = executor
  }

  @inlinable
  func start(_ effect: Effect<Action>) {
    switch effect.operation {
    case .none:
      return
    case .send(let action):
      self.enqueue(action)
    default:
      self.start(effect, ids: [])
    }
  }

  @inlinable
  func start(_ effect: Effect<Action>, ids: [EffectID]) {
    switch effect.operation {
    case .none:
      return
    case .send(let action):
      self.enqueue(action)
    case .run(let run):
      self.spawn(run, ids: ids)
    case .merge(let effects):
      for effect in effects { self.start(effect, ids: ids) }
    case .concatenate(let effects):
      self.spawn(priority: nil, ids: ids) { _ in await self.runInOrder(effects, ids: ids) }
    case .cancellable(let id, let cancelInFlight, let effect):
      if cancelInFlight { self.tasks.cancel(id: id) }
      self.start(effect, ids: ids + [id])
    case .cancel(let id):
      self.tasks.cancel(id: id)
    case .request(let request):
      self.handleRequest(request.payload)
    }
  }

  /// Starts `operation` inline as a task, as ``spawn(_:ids:origin:)`` does: for work the
  /// runner makes itself (a concatenation's body), which catches its own errors.
  @inlinable
  @discardableResult
  func spawn(
    priority: TaskPriority?, ids: [EffectID], origin: EffectOrigin? = nil,
    _ operation: nonisolated(nonsending) @escaping @Sendable (Send<Action>) async -> Void
  ) -> Task<Void, Never>? {
    self.spawn(
      RunOperation(priority: priority, operation, errors: .caughtInside), ids: ids,
      origin: origin)
  }

  /// Starts a `run` effect's operation inline as a task; files it if it is still running when
  /// its synchronous part returns. Returns the task, or nil when the store is gone.
  ///
  /// The task's lifetime is settled in the effect's own object (``RunOperation``), unless a
  /// task of the same effect value is still running; the task's closure holds that object, not
  /// copies of the operation and its error handling.
  @inlinable
  @discardableResult
  func spawn(
    _ run: RunOperation<Action>, ids: [EffectID], origin: EffectOrigin? = nil
  ) -> Task<Void, Never>? {
    let tasks = self.tasks
    guard !tasks.closed.load(ordering: .acquiring) else { return nil }
    let lifetime: EffectLifetime = run.claim() ? run : EffectLifetime()
    let send: Send<Action>
    if let enqueueFromEffect = self.enqueueFromEffect, !ids.isEmpty {
      send = Send { enqueueFromEffect($0, ids) }
    } else {
      send = Send(send: self.enqueue)
    }
    let task: Task<Void, Never>
    if let executor = self.executor {
      task = Task.immediate(priority: run.priority, executorPreference: executor) {
        await executor.run { await run.errors.run(run.operation, send) }
        if let token = lifetime.finish() { tasks.end(token) }
      }
    } else {
      task = Task.immediate(priority: run.priority) {
        await run.errors.run(run.operation, send)
        if let token = lifetime.finish() { tasks.end(token) }
      }
    }
    if lifetime.isFinished {
      lifetime.release()
      return task
    }
    guard let token = tasks.begin(ids: ids, origin: origin) else {
      task.cancel()
      return nil
    }
    if lifetime.file(token) {
      tasks.attach(task, to: token)
    } else {
      tasks.end(token)
      lifetime.release()
    }
    return task
  }

  /// A concatenation's body: each effect in turn, each waited for, until cancelled.
  @usableFromInline
  func runInOrder(_ effects: [Effect<Action>], ids: [EffectID]) async {
    for effect in effects {
      guard !Task.isCancelled else { return }
      await self.awaitAll(effect, ids: ids)
    }
  }

  /// Starts every part of `effect` as filed tasks and waits for all of them.
  @usableFromInline
  func awaitAll(_ effect: Effect<Action>, ids: [EffectID]) async {
    switch effect.operation {
    case .none:
      return
    case .send(let action):
      self.enqueue(action)
    case .cancel(let id):
      self.tasks.cancel(id: id)
    case .request(let request):
      self.handleRequest(request.payload)
    case .run(let run):
      guard let task = self.spawn(run, ids: ids) else { return }
      await withTaskCancellationHandler {
        await task.value
      } onCancel: {
        task.cancel()
      }
    case .merge(let effects):
      await withTaskGroup(of: Void.self) { group in
        for effect in effects {
          group.addTask { await self.awaitAll(effect, ids: ids) }
        }
      }
    case .concatenate(let effects):
      await self.runInOrder(effects, ids: ids)
    case .cancellable(let id, let cancelInFlight, let effect):
      if cancelInFlight { self.tasks.cancel(id: id) }
      await self.awaitAll(effect, ids: ids + [id])
    }
  }
}

/// The default for stores that host nothing: a request nobody handles is a warning.
@usableFromInline
let unhandledRequest: @Sendable (any Sendable) -> Void = { payload in
  runtimeWarn(
    """
    An effect asked its host for \(describe(payload)), but this store has no host to handle \
    requests. Requests are for features running in a host (a plugin); handle the need in a \
    parent reducer instead.
    """, fileID: #fileID, filePath: #filePath, line: #line, column: #column
  )
}
