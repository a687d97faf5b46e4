/// A `run` effect's payload: its operation, what to do with an error the operation throws,
/// and the lifetime of the task that runs it.
///
/// ```swift
/// return .run { send in await send(.loaded(try await api.load())) }
/// // one RunOperation: the closure, its `catch:` handler and call site, and its lifetime
/// ```
///
/// One object holds all three, so an effect round trip allocates this object and its task and
/// nothing more: the task's closure needs no wrapper to catch errors, and the race between the
/// task and its starter is settled in this object (``EffectLifetime``).
@usableFromInline
final class RunOperation<Action>: EffectLifetime, @unchecked Sendable {
  @usableFromInline let priority: TaskPriority?
  @usableFromInline let operation:
    nonisolated(nonsending) @Sendable (Send<Action>) async throws -> Void
  @usableFromInline let errors: EffectErrors<Action>

  @inlinable
  init(
    priority: TaskPriority?,
    _ operation: nonisolated(nonsending) @escaping @Sendable (Send<Action>) async throws -> Void,
    errors: EffectErrors<Action>
  ) {
    (self.priority, self.operation, self.errors) = (priority, operation, errors)
    super.init(idle: ())
  }
}
