import Patchbay

#if canImport(Glibc)
  import Glibc
#endif

/// Polls `condition` until it holds or `timeout` passes: first by yielding, then every
/// millisecond. Returns whether it held. What test stores and their tasks wait with.
nonisolated(nonsending) func poll(until condition: () -> Bool, timeout: Duration) async -> Bool {
  let deadline = ContinuousClock.now.advanced(by: timeout)
  var spins = 0
  while !condition() {
    if ContinuousClock.now >= deadline { return false }
    if spins < 100 {
      spins += 1
      await Task.yield()
    } else {
      try? await Task.sleep(for: .milliseconds(1))
    }
  }
  return true
}

/// Blocks the calling thread until `isDone`; gives up once `executor` has been idle for 20 ms,
/// or after `timeout`. For `deinit`, which cannot suspend: the effects it waits for run on the
/// executor's own thread, and the short quiet limit keeps a thread of the cooperative pool
/// from being held while nothing can change.
func waitBlocking(
  until isDone: () -> Bool, whileBusy executor: SettlingExecutor, timeout: Duration
) {
  let start = ContinuousClock.now
  var quietSince: ContinuousClock.Instant?
  while !isDone() {
    let now = ContinuousClock.now
    if now - start >= timeout { return }
    if executor.isIdle {
      let since = quietSince ?? now
      if now - since >= .milliseconds(20) { return }
      quietSince = since
    } else {
      quietSince = nil
    }
    usleep(50)
  }
}
