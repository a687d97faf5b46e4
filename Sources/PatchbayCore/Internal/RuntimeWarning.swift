import CustomDump
import IssueReporting

/// Reports misuse of the runtime at the caller's file and line: a test failure under a test
/// runner, a warning on standard error in an app. State is never changed by a warning.
package func runtimeWarn(
  _ message: String,
  fileID: StaticString,
  filePath: StaticString,
  line: UInt,
  column: UInt
) {
  reportIssue(message, fileID: fileID, filePath: filePath, line: line, column: column)
}

/// An action in the form warnings print it: `Feature.Action.child(.increment)`.
package func describe<Action>(_ action: Action) -> String {
  var output = ""
  customDump(action, to: &output, maxDepth: 4)
  return output
}

/// Where a composition operator was written, for its warnings.
package struct SourceLocation: CustomStringConvertible, Sendable {
  package let fileID: StaticString
  package let filePath: StaticString
  package let line: UInt
  package let column: UInt

  package init(_ fileID: StaticString, _ filePath: StaticString, _ line: UInt, _ column: UInt) {
    (self.fileID, self.filePath, self.line, self.column) = (fileID, filePath, line, column)
  }

  package var description: String { "\(self.fileID):\(self.line)" }
}

package func runtimeWarn(_ message: String, location: SourceLocation) {
  runtimeWarn(
    message, fileID: location.fileID, filePath: location.filePath, line: location.line,
    column: location.column
  )
}
