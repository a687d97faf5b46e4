import Foundation
import PatchbayHost
import PatchbayScript
import PatchbayValidation

/// Replays candidate runs in child processes and says how each ended: `patchbay repro-child`
/// (``ReplayServer``), `jobs` of them, so a crash or a hang ends a child and not `patchbay
/// repro`, and each refusal or NaN is named.
///
/// ```swift
/// let runner = ReproRunner(executable: "/usr/bin/patchbay", config: recording.config,
///                          folder: scratch, arguments: ["--plugin-path", "build"])
/// runner.run([recording.steps.map(\.step)], from: 0)
/// // [.failed([(ReproFailure(kind: "SIGILL", feature: "dev.patchbay.x", call: "reduce"), "…")])]
/// runner.stop()
/// ```
package final class ReproRunner: Sendable {
  /// The `patchbay` executable the children run.
  package let executable: String
  /// The config the recording ran with (absolute).
  package let config: String
  /// Where candidates are written (and removed once run).
  package let folder: String
  /// Passed on to each child: `--plugin-path`, `--isolate`, `--call-seconds`.
  package let arguments: [String]
  private let workers: ReplayWorkers

  /// `jobs` children replay at once.
  package init(
    executable: String, config: String, folder: String, arguments: [String] = [], jobs: Int = 2
  ) {
    self.executable = executable
    self.config = config
    self.folder = folder
    self.arguments = arguments
    self.workers = ReplayWorkers(count: jobs) {
      ReplayServer(executable: executable, arguments: ["repro-child", config] + arguments)
    }
  }

  /// How many replay at once.
  package var jobs: Int { self.workers.count }

  /// Ends the children.
  package func stop() {
    self.workers.stop()
  }

  /// How a replay ended.
  package enum Outcome: Sendable {
    /// Plugins failed: how, and the host's report lines, in order (a crash or a hang last).
    case failed([(failure: ReproFailure, report: String)])
    /// Every step ran and nothing failed.
    case passed
    /// The replay stopped for another reason (a step the shorter run cannot take, such as an
    /// action to an instance it never made); what it said.
    case stopped(String)

    /// The report of `failure`, when the replay failed so.
    package func report(of failure: ReproFailure) -> String? {
      guard case .failed(let failures) = self else { return nil }
      return failures.last { $0.failure == failure }?.report
    }

    /// The last failure, the one that ended it if one did.
    package var last: ReproFailure? {
      if case .failed(let failures) = self { failures.last?.failure } else { nil }
    }
  }

  typealias Ending = ChildRun.Ending

  /// Replays each of `candidates`, `jobs` at a time, numbered from `first`; in order.
  package func run(_ candidates: [[RecordingLine.Step]], from first: Int) -> [Outcome] {
    let (config, folder) = (self.config, self.folder)
    return self.workers.run(candidates.count) { index, server in
      let file = "\(folder)/candidate-\(first + index + 1).jsonl"
      defer { try? FileManager.default.removeItem(atPath: file) }
      let candidate = Recording(
        config: config,
        steps: candidates[index].enumerated().map { ($0.offset + 2, $0.element) }, file: file)
      do {
        try candidate.write(to: file)
      } catch {
        return .stopped("\(error)")
      }
      return server.replay(file)
    }
  }

  /// What a child's ending and its stderr say.
  static func outcome(_ ending: Ending, stderr: String) -> Outcome {
    let lines = stderr.split(separator: "\n").map(String.init)
    let failures = lines.compactMap { line -> (ReproFailure, String)? in
      guard let failure = ReproFailure(report: line) else { return nil }
      // Less the child's own flight file, gone with it.
      let report = line.firstRange(of: " Its last actions: ").map { String(line[..<$0.lowerBound]) }
      return (failure, report ?? line)
    }
    if !failures.isEmpty { return .failed(failures) }
    switch ending {
    case .exited(0): return .passed
    case .signaled(let signal):
      return .stopped("the replay was killed by \(signalName(signal))")
    case .outranCPU, .outranWallClock:
      return .stopped("the replay did not finish in its time")
    case .notStarted(let error):
      return .stopped("could not start the replay: \(String(cString: strerror(error)))")
    case .exited(let status):
      return .stopped(lines.last ?? "the replay exited with status \(status)")
    }
  }
}
