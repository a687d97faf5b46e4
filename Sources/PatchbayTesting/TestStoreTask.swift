import IssueReporting
import Patchbay
import Synchronization

/// The effects one sent action started, returned by ``TestStore/send(_:assert:fileID:file:line:column:)``.
///
/// ```swift
/// let task = await store.send(.onAppear)   // starts a long-living effect
/// await store.send(.incrementTapped) { $0.count = 1 }
/// await task.cancel()                     // the test ends with nothing in flight
/// ```
///
/// The view's `.task { await store.send(.onAppear).finish() }` works the same way in tests.
public struct TestStoreTask: Hashable, Sendable {
  let id: SentActionEffects?
  let effects: EffectTasks
  let timeout: Duration
  private let cancelled: CancelFlag

  init(id: SentActionEffects?, effects: EffectTasks, timeout: Duration) {
    self.id = id
    self.effects = effects
    self.timeout = timeout
    self.cancelled = CancelFlag()
  }

  /// Cancels the action's effects; they stop counting as in flight at once.
  public nonisolated(nonsending) func cancel() async {
    self.cancelled.value.store(true, ordering: .releasing)
    guard let id = self.id else { return }
    self.effects.cancelEffects(id: id)
    await Task.yield()
  }

  /// Waits for the action's effects to finish; fails the test if some still run after
  /// `timeout` (the store's, one second by default).
  public nonisolated(nonsending) func finish(
    timeout: Duration? = nil,
    fileID: StaticString = #fileID,
    file filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    guard let id = self.id else { return }
    let timeout = timeout ?? self.timeout
    guard await !poll(until: { !self.effects.isRunning(id: id) }, timeout: timeout) else { return }
    reportIssue(
      """
      Expected the task to finish, but its effects were still running after \(timeout).

      Fix: advance the test clock far enough for the effect to end, use an 'ImmediateClock', \
      or pass a longer 'timeout:'.
      """,
      fileID: fileID, filePath: filePath, line: line, column: column
    )
  }

  /// Whether ``cancel()`` was called, or the action started no effect (there is nothing to
  /// run), as in TCA.
  public var isCancelled: Bool {
    self.id == nil || self.cancelled.value.load(ordering: .acquiring)
  }

  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.id == rhs.id && lhs.effects === rhs.effects
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(self.id)
    hasher.combine(ObjectIdentifier(self.effects))
  }
}

private final class CancelFlag: Sendable {
  let value = Atomic<Bool>(false)
}
