/// A weak reference filled in after the closures that hold it are made.
///
/// ```swift
/// let core = WeakReference<StoreCore<State, Action>>()
/// self.runner = EffectRunner(tasks: effects, enqueue: { [core] in core.object?.send($0) })
/// // … the rest of init …
/// core.object = self
/// ```
///
/// A store's effects send through one: its effect runner can then be a constant, made in the
/// store's `init` before `self` may be captured, so starting an effect reads it without a copy
/// or an exclusivity check. The reference is set once, before any effect can start, and only
/// read after that, so its accesses are not checked either.
@usableFromInline
final class WeakReference<Object: AnyObject>: @unchecked Sendable {
  @exclusivity(unchecked) @usableFromInline weak var object: Object?

  @inlinable init() {}
}
