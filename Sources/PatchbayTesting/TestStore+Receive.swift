import CustomDump
import IssueReporting
import Patchbay

/// Receiving what effects sent back, and asserting how each changed the state.
extension TestStore {
  /// Waits for an effect to send `expected` and asserts how it changed the state.
  public nonisolated(nonsending) func receive(
    _ expected: Action,
    timeout: Duration? = nil,
    assert updateStateToExpectedResult: ((_ state: inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    file filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async where Action: Equatable {
    await self.receive(
      describing: describeAction(expected), expected: expected, matching: { $0 == expected },
      timeout: timeout, updateStateToExpectedResult, at: (fileID, filePath, line, column)
    )
  }

  /// Waits for an effect to send an action in the case at `casePath`, and asserts how it
  /// changed the state: `await store.receive(\.loginResponse.success)`.
  public nonisolated(nonsending) func receive<Value>(
    _ casePath: CaseKeyPath<Action, Value>,
    timeout: Duration? = nil,
    assert updateStateToExpectedResult: ((_ state: inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    file filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async where Action: CasePathable {
    await self.receive(
      describing: "an action at \(describeCaseKeyPath(casePath))", expected: nil,
      matching: { $0[case: casePath] != nil }, timeout: timeout, updateStateToExpectedResult,
      at: (fileID, filePath, line, column)
    )
  }

  /// Waits for an effect to send the action at `casePath` with `value`, and asserts how it
  /// changed the state: `await store.receive(\.factResponse, "0 is a good number.")`.
  public nonisolated(nonsending) func receive<Value: Equatable>(
    _ casePath: CaseKeyPath<Action, Value>,
    _ value: Value,
    timeout: Duration? = nil,
    assert updateStateToExpectedResult: ((_ state: inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    file filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async where Action: CasePathable {
    var expectedValue = ""
    customDump(value, to: &expectedValue, maxDepth: 2)
    await self.receive(
      describing: "\(describeCaseKeyPath(casePath)) with \(expectedValue)", expected: nil,
      matching: { $0[case: casePath] == value }, timeout: timeout, updateStateToExpectedResult,
      at: (fileID, filePath, line, column)
    )
  }

  /// Waits for an effect to send an action for which `isMatching` is true, and asserts how it
  /// changed the state.
  public nonisolated(nonsending) func receive(
    _ isMatching: @escaping (_ action: Action) -> Bool,
    timeout: Duration? = nil,
    assert updateStateToExpectedResult: ((_ state: inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    file filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    await self.receive(
      describing: "an action matching the predicate", expected: nil, matching: isMatching,
      timeout: timeout, updateStateToExpectedResult, at: (fileID, filePath, line, column)
    )
  }

  nonisolated(nonsending) func receive(
    describing expectedDescription: String,
    expected: Action?,
    matching: @escaping (Action) -> Bool,
    timeout: Duration?,
    _ updateStateToExpectedResult: ((inout State) throws -> Void)?,
    at location: Location
  ) async {
    let exhaustive = self.exhaustivity == .on
    let timeout = timeout ?? self.timeout
    var taken: (skipped: [TestLog<State, Action>.Entry], match: TestLog<State, Action>.Entry?) =
      ([], nil)
    _ = await poll(
      until: {
        if exhaustive {
          return !self.log.received.isEmpty
        }
        taken = self.log.takeReceived(onlyFirst: false, where: matching)
        return taken.match != nil
      },
      timeout: timeout
    )
    if exhaustive {
      guard let first = self.log.received.first else {
        self.fail(
          """
          Expected to receive \(expectedDescription), but received no action within \
          \(timeout).

          Fix: check the effect sends it, advance the test clock far enough, or pass a longer \
          'timeout:'.
          """,
          at: location
        )
        return
      }
      taken = self.log.takeReceived(onlyFirst: true, where: matching)
      if taken.match == nil {
        let actual = self.log.takeReceived(onlyFirst: true, where: { _ in true }).match ?? first
        let difference =
          expected.flatMap { diff($0, actual.action, format: .proportional) }
          .map { "\n\n\($0.indent())\n\n(Expected: −, Received: +)" } ?? ""
        self.fail(
          """
          Received an unexpected action. Expected \(expectedDescription), received \
          \(describeAction(actual.action)).\(difference)
          """,
          at: location
        )
        self.state = actual.after
        return
      }
    }
    guard let entry = taken.match else {
      self.fail(
        """
        Expected to receive \(expectedDescription), but no matching action arrived within \
        \(timeout).
        """,
        at: location
      )
      return
    }
    self.check(entry, updateStateToExpectedResult, at: location)
  }
}
