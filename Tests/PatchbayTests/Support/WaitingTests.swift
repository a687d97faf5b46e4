import PatchbayTestWaiting
import Synchronization
import Testing

/// The waiting helpers the suites share (Tests/PatchbayTestWaiting).
@Suite struct WaitingTests {
  /// What ``HighPriority`` is for: the runner starts tests below high priority, so a task a
  /// test starts would queue behind the tests still waiting to start.
  @Test func withoutTheTraitATestRunsBelowHighPriority() {
    #expect(Task.currentPriority < .high)
  }

  @Test func aConditionTrueOnlyAtTheDeadlineStillCounts() async {
    let checks = Atomic(0)
    let seen = await eventually(seconds: 0) { checks.add(1, ordering: .relaxed).newValue > 1 }
    #expect(seen)
    #expect(checks.load(ordering: .relaxed) == 2)
  }

  @Test func aConditionNeverTrueFailsAtTheDeadline() async {
    #expect(await eventually(seconds: 0.01) { false } == false)
  }
}

@Suite(.highPriority) struct HighPriorityTests {
  @Test func aTestAndTheTasksItStartsRunAtHighPriority() async {
    #expect(Task.currentPriority == .high)
    let started = await Task { Task.currentPriority }.value
    #expect(started == .high)
  }
}
