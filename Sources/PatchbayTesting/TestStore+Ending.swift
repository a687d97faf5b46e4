import CustomDump
import IssueReporting
import Patchbay

/// Ending a test: the host requests made, skipping what the test does not assert, waiting
/// for effects to finish.
extension TestStore {
  /// The host requests (``Effect/request(_:)``) effects made since the last call, in order.
  public func takeRequests() -> [any Sendable] {
    self.requestLog.withValue { requests in
      defer { requests.removeAll() }
      return requests
    }
  }

  /// Drops every action received so far without asserting it; the state moves on to the
  /// state after the last one. With `strict`, having nothing to skip is a failure.
  public nonisolated(nonsending) func skipReceivedActions(
    strict: Bool = true,
    fileID: StaticString = #fileID,
    file filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    await Task.yield()
    let skipped = self.log.takeAllReceived()
    if let last = skipped.last {
      self.state = last.after
    } else if strict {
      self.fail(
        "There were no received actions to skip. Fix: remove the call, or pass 'strict: false'.",
        at: (fileID, filePath, line, column)
      )
    }
  }

  /// Cancels every effect still running. With `strict`, having none running is a failure.
  public nonisolated(nonsending) func skipInFlightEffects(
    strict: Bool = true,
    fileID: StaticString = #fileID,
    file filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    if self.core.effects.count == 0 {
      if strict {
        self.fail(
          "There were no in-flight effects to skip. Fix: remove the call, or pass 'strict: false'.",
          at: (fileID, filePath, line, column)
        )
      }
      return
    }
    self.core.effects.cancelAll()
    _ = await poll(until: { self.core.effects.count == 0 }, timeout: self.timeout)
  }

  /// Waits until every effect has finished; fails if one is still running after `timeout`.
  public nonisolated(nonsending) func finish(
    timeout: Duration? = nil,
    fileID: StaticString = #fileID,
    file filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    let timeout = timeout ?? self.timeout
    let finished = await poll(
      until: { self.core.effects.count == 0 && !self.core.isBusy }, timeout: timeout
    )
    if !finished {
      self.fail(
        """
        Expected all effects to finish, but \(self.core.effects.count) were still running \
        after \(timeout).

        Fix: make the effect finish (advance the test clock, complete its stream), cancel it \
        with an action, or call 'skipInFlightEffects()'.
        """,
        at: (fileID, filePath, line, column)
      )
    }
  }
}
