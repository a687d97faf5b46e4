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
