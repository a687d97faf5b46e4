import IssueReporting
import Patchbay
import Synchronization

/// Collects the failures a ``TestStore`` reports inside `body` instead of failing the test.
func collectIssues(_ body: () async throws -> Void) async rethrows -> [Failure] {
  let collector = Collector()
  try await withIssueReporters([collector]) {
    try await body()
  }
  return collector.failures
}

struct Failure: Sendable {
  let message: String
  let fileID: String
  let line: UInt
}

final class Collector: IssueReporter {
  private let storage = Mutex<[Failure]>([])
  var failures: [Failure] { self.storage.withLock { $0 } }

  func reportIssue(
    _ message: @autoclosure () -> String?, severity: IssueSeverity, fileID: StaticString,
    filePath: StaticString, line: UInt, column: UInt
  ) {
    let failure = Failure(message: message() ?? "", fileID: "\(fileID)", line: line)
    self.storage.withLock { $0.append(failure) }
  }
}

struct Feature: Reducer {
  struct State: Equatable { var count = 0; var text = "" }
  @CasePathable enum Action: Equatable {
    case increment, echo, echoed, sleepForever, ping(Int)
  }
  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .increment:
      state.count += 1
      return .none
    case .echo:
      return .send(.echoed)
    case .echoed:
      state.text = "echoed"
      return .none
    case .sleepForever:
      return .run { _ in try await Task.sleep(for: .seconds(3600)) }
    case .ping(let n):
      state.count = n
      return .none
    }
  }
}
