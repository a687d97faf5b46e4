import IssueReporting

/// Work a reducer asks the store to do after it changed the state: send more actions, run
/// asynchronous code that feeds actions back, or cancel work already running.
///
/// ```swift
/// case .refreshTapped:
///   state.isLoading = true
///   return .run { send in
///     let items = try await api.fetch()
///     await send(.refreshed(items))
///   }
///   .cancellable(id: CancelID.refresh, cancelInFlight: true)
/// ```
///
/// An effect is plain data until a store runs it, so reducers stay pure and tests can run the
/// same effects for real.
public struct Effect<Action> {
  /// Every payload is one pointer (a box, an array or an object), so an effect copies as
  /// cheaply as a reference, whatever its action.
  @usableFromInline
  enum Operation {
    case none
    indirect case send(Action)
    /// The operation, what to do with an error it throws, and the lifetime of the task that
    /// runs it: one object, the only allocation a `run` makes beyond its task's own.
    case run(RunOperation<Action>)
    case merge([Effect<Action>])
    case concatenate([Effect<Action>])
    indirect case cancellable(id: EffectID, cancelInFlight: Bool, Effect<Action>)
    indirect case cancel(id: EffectID)
    indirect case request(UncheckedRequest)
  }

  @usableFromInline
  let operation: Operation

  @usableFromInline
  init(_ operation: Operation) {
    self.operation = operation
  }

  /// Whether this is `.none`: composition returns `.none` itself rather than map nothing.
  @inlinable
  package var isNone: Bool {
    if case .none = self.operation { return true }
    return false
  }
}

extension Effect: @unchecked Sendable {}

/// A reducer's effect type, for helpers that return one: `func load() -> EffectOf<Self>`.
public typealias EffectOf<R: Reducer> = Effect<R.Action>

extension Effect {
  /// Whether the effect does nothing: test stores use it to tell actions that started work.
  package var _isNone: Bool {
    if case .none = self.operation { return true }
    return false
  }
}

extension Effect {
  /// No work.
  @inlinable
  public static var none: Self {
    Self(.none)
  }

  /// Sends `action` back into the store, after the actions already queued.
  ///
  /// Prefer calling shared logic directly over sending an action to yourself; use `send` to
  /// tell a parent something (a delegate action) or to reuse a child's handling.
  @inlinable
  public static func send(_ action: Action) -> Self {
    Self(.send(action))
  }

  /// Runs asynchronous work that may send any number of actions back into the store.
  ///
  /// ```swift
  /// return .run { send in
  ///   try await clock.sleep(for: .seconds(1))
  ///   await send(.timerTicked)
  /// }
  /// ```
  ///
  /// Errors other than cancellation go to `handler`; without one they are reported as issues
  /// (a test failure in tests, a runtime warning in apps) naming this call's file and line.
  ///
  /// The operation sees the store's dependencies, including overrides from
  /// ``Reducer/dependency(_:_:)`` around the reducer that returned it.
  ///
  /// > Important: The operation starts on the store's queue and runs there until its first
  /// > suspension point (an `await` that really waits); it continues on the global executor
  /// > after that. Starting inline is what makes an effect round trip cost about a microsecond
  /// > rather than a thread hop. Do slow synchronous work after an `await`, not before it.
  /// > The operation is `nonisolated(nonsending)`: it runs on its task's executor and makes
  /// > no hop of its own when it starts or when a call it awaits returns.
  @inlinable
  public static func run(
    priority: TaskPriority? = nil,
    operation:
      nonisolated(nonsending) @escaping @Sendable (_ send: Send<Action>) async throws -> Void,
    catch handler: (@Sendable (_ error: any Error, _ send: Send<Action>) async -> Void)? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> Self {
    let errors = EffectErrors(
      handler: handler, fileID: fileID, filePath: filePath, line: line, column: column)
    return Self(.run(RunOperation(priority: priority, operation, errors: errors)))
  }

  /// A `run` of an operation that throws nothing (its errors, if any, are caught inside it).
  @inlinable
  static func _run(
    priority: TaskPriority?,
    _ operation: nonisolated(nonsending) @escaping @Sendable (Send<Action>) async -> Void
  ) -> Self {
    Self(.run(RunOperation(priority: priority, operation, errors: .caughtInside)))
  }
}

/// What a `run` effect does with an error its operation throws: gives it to its `catch:`
/// handler, or reports it naming the `Effect.run` call.
@usableFromInline
struct EffectErrors<Action>: Sendable {
  @usableFromInline let handler: (@Sendable (any Error, Send<Action>) async -> Void)?
  @usableFromInline let fileID: StaticString
  @usableFromInline let filePath: StaticString
  @usableFromInline let line: UInt
  @usableFromInline let column: UInt

  @inlinable
  init(
    handler: (@Sendable (any Error, Send<Action>) async -> Void)?, fileID: StaticString,
    filePath: StaticString, line: UInt, column: UInt
  ) {
    (self.handler, self.fileID, self.filePath) = (handler, fileID, filePath)
    (self.line, self.column) = (line, column)
  }

  /// For an operation that catches its own errors (one wrapped by `map` or `dependency`).
  @inlinable
  static var caughtInside: Self {
    Self(handler: nil, fileID: #fileID, filePath: #filePath, line: #line, column: #column)
  }

  /// Runs `operation`, handling what it throws.
  @inlinable
  nonisolated(nonsending) func run(
    _ operation: nonisolated(nonsending) @Sendable (Send<Action>) async throws -> Void,
    _ send: Send<Action>
  )
    async
  {
    do {
      try await operation(send)
    } catch {
      await _handleEffectError(
        error, self.handler, send, fileID: self.fileID, filePath: self.filePath,
        line: self.line, column: self.column)
    }
  }

  /// `operation` with its errors handled inside it: for wrapping it in something that must
  /// see the handler run within it (a mapped `send`, overridden dependencies).
  @inlinable
  func catching(
    _ operation: nonisolated(nonsending) @escaping @Sendable (Send<Action>) async throws -> Void
  )
    -> nonisolated(nonsending) @Sendable (Send<Action>) async -> Void
  {
    { send in await self.run(operation, send) }
  }
}

/// Gives an error thrown by an `Effect.run` to its handler, or reports it.
@usableFromInline
func _handleEffectError<Action>(
  _ error: any Error,
  _ handler: (@Sendable (any Error, Send<Action>) async -> Void)?,
  _ send: Send<Action>,
  fileID: StaticString,
  filePath: StaticString,
  line: UInt,
  column: UInt
) async {
  if error is CancellationError || Task.isCancelled { return }
  if let handler {
    await handler(error, send)
    return
  }
  reportIssue(
    """
    An 'Effect.run' threw an unhandled error: \(error)

    Every error an effect can throw should be turned into an action: pass 'catch:' to \
    'Effect.run', or catch it inside the operation.
    """,
    fileID: fileID, filePath: filePath, line: line, column: column
  )
}

extension Effect {
  /// Asks whatever hosts this reducer to do something outside the feature — a plugin host
  /// navigating, for example. The host's handler receives `payload`; a store with no handler
  /// reports the request as a warning.
  ///
  /// ```swift
  /// return .request(NavigationRequest.push(route: "/results"))
  /// ```
  public static func request(_ payload: some Sendable) -> Self {
    Self(.request(UncheckedRequest(payload)))
  }
}

/// A host request's payload.
@usableFromInline
struct UncheckedRequest: @unchecked Sendable {
  @usableFromInline let payload: any Sendable
  @usableFromInline init(_ payload: any Sendable) { self.payload = payload }
}

/// The identity of a cancellable effect: any hashable, sendable value.
@usableFromInline
package struct EffectID: Hashable, @unchecked Sendable, CustomStringConvertible {
  let base: AnyHashable

  @usableFromInline
  init(_ base: some Hashable & Sendable) {
    if let id = base as? EffectID {
      self = id
    } else {
      self.base = AnyHashable(base)
    }
  }

  @usableFromInline
  package var description: String { String(describing: self.base.base) }

  /// The id as text that stays the same across builds of the code: its type's full name and
  /// its value (`Timer.CancelID.tick`, `"search"`, `Rows.ID(value: 3)`), scopes joined with
  /// `/`. Another generation of a plugin names the same id with the same key after a swap.
  @usableFromInline
  package var key: String {
    if let scoped = self.base.base as? ScopedEffectID {
      return scoped.scope.key + "/" + scoped.id.key
    }
    return String(reflecting: self.base.base)
  }
}
