/// An app's queue, as a handle it owns sees it.
final class AppQueue: Sendable {
  let executor: AppExecutor
  /// What the app does after a job that reduced an action (apply navigation requests).
  let afterJob: @Sendable () -> Void
  /// How much state and view the app lets a plugin write (`[limits]`).
  let limits: OutputLimits

  init(executor: AppExecutor, limits: OutputLimits, afterJob: @escaping @Sendable () -> Void) {
    self.executor = executor
    self.limits = limits
    self.afterJob = afterJob
  }
}
