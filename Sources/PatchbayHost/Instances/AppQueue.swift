/// An app's queue, as a handle it owns sees it.
final class AppQueue: Sendable {
  let executor: AppExecutor
  /// What the app does after a job that reduced an action (apply navigation requests).
  let afterJob: @Sendable () -> Void

  init(executor: AppExecutor, afterJob: @escaping @Sendable () -> Void) {
    self.executor = executor
    self.afterJob = afterJob
  }
}
