extension Effect {
  /// The same effect with every `run` operation keeping, in `tracker`, what the shared values
  /// it changes were before: a test store asserts an effect's changes like the reducer's.
  public func _trackingSharedChanges(_ tracker: SharedChangeTracker) -> Self {
    switch self.operation {
    case .none, .send, .cancel, .request:
      return self
    case .run(let priority, let operation):
      return Self(
        .run(priority) { send in
          await SharedChangeTracker.$current.withValue(tracker) { await operation(send) }
        }
      )
    case .merge(let effects):
      return Self(.merge(effects.map { $0._trackingSharedChanges(tracker) }))
    case .concatenate(let effects):
      return Self(.concatenate(effects.map { $0._trackingSharedChanges(tracker) }))
    case .cancellable(let id, let cancelInFlight, let effect):
      return Self(
        .cancellable(
          id: id, cancelInFlight: cancelInFlight, effect._trackingSharedChanges(tracker)))
    }
  }
}
