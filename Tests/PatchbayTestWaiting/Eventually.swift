/// Polls `condition` for up to `seconds`; for tests that wait on effects running on other
/// threads.
///
///     store.send(.start)
///     #expect(await eventually { store.state.received.count == 10_000 })
///
/// The condition is checked once more at the deadline: a poll that was itself kept waiting past
/// it still sees what happened meanwhile. Give the suite ``HighPriority`` too, so that the
/// effects it waits for are not queued behind tests still waiting to start.
public func eventually(seconds: Double = 300, _ condition: () -> Bool) async -> Bool {
  let deadline = ContinuousClock.now.advanced(by: .milliseconds(Int(seconds * 1000)))
  while !condition() {
    if ContinuousClock.now >= deadline { return condition() }
    try? await Task.sleep(for: .milliseconds(1))
  }
  return true
}
