import PatchbayCore

extension Effect {
  /// The same effect with every `run` operation keeping, in `tracker`, what the shared values
  /// it changes were before: a test store asserts an effect's changes like the reducer's.
  public func _trackingSharedChanges(_ tracker: SharedChangeTracker) -> Self {
    self._wrappingRuns { operation in
      { send in
        await SharedChangeTracker.$current.withValue(tracker) { await operation(send) }
      }
    }
  }
}
