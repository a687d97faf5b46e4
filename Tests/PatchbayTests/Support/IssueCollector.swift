import IssueReporting
import Synchronization

/// Collects the issues (runtime warnings, test-store failures) reported inside `body`, instead
/// of failing the test, so a test can assert on their text.
func collectIssues(_ body: () async throws -> Void) async rethrows -> [String] {
  let collector = IssueCollector()
  try await withIssueReporters([collector]) {
    try await body()
  }
  return collector.messages
}

/// Synchronous ``collectIssues(_:)``.
func collectIssues(_ body: () throws -> Void) rethrows -> [String] {
  try collecting(body).messages
}

/// ``collectIssues(_:)`` with where each issue was reported: "fileID:line".
func collectIssueLocations(_ body: () throws -> Void) rethrows -> [String] {
  try collecting(body).locations
}

private func collecting(_ body: () throws -> Void) rethrows -> IssueCollector {
  let collector = IssueCollector()
  try withIssueReporters([collector]) {
    try body()
  }
  return collector
}

final class IssueCollector: IssueReporter {
  private let storage = Mutex<[String]>([])
  private let reportedAt = Mutex<[String]>([])

  var messages: [String] { self.storage.withLock { $0 } }
  var locations: [String] { self.reportedAt.withLock { $0 } }

  func reportIssue(
    _ message: @autoclosure () -> String?,
    severity: IssueSeverity,
    fileID: StaticString,
    filePath: StaticString,
    line: UInt,
    column: UInt
  ) {
    let text = message() ?? ""
    self.storage.withLock { $0.append(text) }
    self.reportedAt.withLock { $0.append("\(fileID):\(line)") }
  }
}
