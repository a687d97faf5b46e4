import CustomDump
import IssueReporting

/// Reports misuse of the runtime at the caller's file and line: a test failure under a test
/// runner, a warning on standard error in an app. State is never changed by a warning.
func runtimeWarn(
  _ message: String,
  fileID: StaticString,
  filePath: StaticString,
  line: UInt,
  column: UInt
) {
  reportIssue(message, fileID: fileID, filePath: filePath, line: line, column: column)
}

/// An action in the form warnings print it: `Feature.Action.child(.increment)`.
func describe<Action>(_ action: Action) -> String {
  var output = ""
  customDump(action, to: &output, maxDepth: 4)
  return output
}
