extension Effect {
  /// Turns the actions this effect sends into another type, as a parent does with a child's
  /// effects.
  ///
  /// ```swift
  /// return Child().reduce(into: &state.child, action: childAction).map(Action.child)
  /// ```
  @inlinable
  public func map<T>(_ transform: @escaping @Sendable (Action) -> T) -> Effect<T> {
    switch self.operation {
    case .none:
      return .none
    default:
      return self._map(transform)
    }
  }

  @usableFromInline
  package func _map<T>(_ transform: @escaping @Sendable (Action) -> T) -> Effect<T> {
    switch self.operation {
    case .none:
      return .none
    case .send(let action):
      return Effect<T>(.send(transform(action)))
    case .run(let run):
      let caught = run.errors.catching(run.operation)
      return Effect<T>._run(priority: run.priority) { send in
        await caught(Send { action in send.send(transform(action)) })
      }
    case .merge(let effects):
      return Effect<T>(.merge(effects.map { $0._map(transform) }))
    case .concatenate(let effects):
      return Effect<T>(.concatenate(effects.map { $0._map(transform) }))
    case .cancellable(let id, let cancelInFlight, let effect):
      return Effect<T>(.cancellable(id: id, cancelInFlight: cancelInFlight, effect._map(transform)))
    case .cancel(let id):
      return Effect<T>(.cancel(id: id))
    case .request(let request):
      return Effect<T>(.request(request))
    }
  }
}
