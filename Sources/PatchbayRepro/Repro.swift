import PatchbayEncoding
import PatchbayScript
import PatchbayValidation

/// A failing run made as short as it goes: `patchbay repro`.
///
/// It replays the recording `confirmations` times (a failure that comes back in only some is
/// flaky, and is not shrunk), then leaves out steps by delta debugging while the replay still
/// fails the same way (same kind, feature and call), then makes each kept action's arguments
/// simpler (numbers toward 0, strings shorter) while it still does. Each try is a replay in a
/// child process (``ReproRunner``), as many at a time as it has.
///
/// ```swift
/// let repro = Repro(steps: recording.steps.map(\.step), runner: runner)
/// let shrunk = try repro.shrink { print($0) }
/// shrunk.kept      // the 4 actions that crash it, of 10,000
/// shrunk.runs      // replays it took
/// ```
package struct Repro: Sendable {
  package let steps: [RecordingLine.Step]
  package let runner: ReproRunner
  /// How many times the whole recording is replayed first.
  package let confirmations: Int
  /// The failure the recording says stopped it, when it says one; else the last the first
  /// replay reports (a crash or a hang ends it: that one).
  package let expected: ReproFailure?

  package init(
    steps: [RecordingLine.Step], runner: ReproRunner, confirmations: Int = 3,
    expected: ReproFailure? = nil
  ) {
    self.steps = steps
    self.runner = runner
    self.confirmations = max(1, confirmations)
    self.expected = expected
  }

  /// What shrinking found.
  package struct Shrunk: Sendable {
    package var failure: ReproFailure
    /// The report line of the last replay that failed so (of the kept steps).
    package var report: String
    package var kept: [RecordingLine.Step]
    /// Actions whose arguments were made simpler: what they were, what they are.
    package var simplified: [(from: String, to: String)]
    /// Replays run, the confirmations included.
    package var runs: Int
  }

  /// Why nothing was shrunk.
  package enum Refusal: Error, Equatable, CustomStringConvertible {
    /// No replay failed: what each said.
    case noFailure(runs: Int, said: String)
    /// Some replays failed the same way and some did not.
    case flaky(failed: Int, of: Int, failure: ReproFailure)
    /// The replays failed, but not as the recording says it stopped.
    case otherFailure(expected: ReproFailure, found: ReproFailure)

    package var description: String {
      switch self {
      case .noFailure(let runs, let said):
        "the recording replays without failing (\(runs) of \(runs) replays: \(said)); there is "
          + "nothing to shrink. If it failed in a live run, what made it fail was not in the "
          + "recording (timing, a device, another process)"
      case .flaky(let failed, let runs, let failure):
        "flaky: \(failure) came back in \(failed) of \(runs) replays; shrinking needs a "
          + "failure that comes back every time. Look for what differs between runs (an "
          + "effect's timing, the clock, a random number), or replay it again: patchbay "
          + "repro --confirm 10"
      case .otherFailure(let expected, let found):
        "the recording says it stopped with \(expected), but its replays fail with \(found); "
          + "check the plugins are the builds it ran with"
      }
    }
  }

  /// Confirms the failure, then shrinks it; `progress` hears a line per phase.
  package func shrink(progress: (String) -> Void = { _ in }) throws(Refusal) -> Shrunk {
    let all = self.steps
    let confirmed = self.runAll(Array(repeating: all, count: self.confirmations), from: 0)
    var runs = confirmed.count
    guard let first = confirmed.first?.last else {
      throw .noFailure(runs: runs, said: Self.said(confirmed.last))
    }
    let failure = self.expected ?? first
    let same = confirmed.filter { $0.report(of: failure) != nil }.count
    guard same > 0 else { throw .otherFailure(expected: failure, found: first) }
    guard same == confirmed.count else {
      throw .flaky(failed: same, of: confirmed.count, failure: failure)
    }
    progress("\(failure), in \(same) of \(confirmed.count) replays of \(all.count) steps")
    var report = confirmed.compactMap { $0.report(of: failure) }.first ?? ""

    // 1. Steps: delta debugging over their indices.
    let shrunk = DeltaDebugging.minimize(Array(all.indices), batch: self.runner.jobs) {
      candidates in
      let outcomes = self.runAll(candidates.map { $0.map { all[$0] } }, from: runs)
      runs += candidates.count
      let index = outcomes.firstIndex { $0.report(of: failure) != nil }
      if let index { report = outcomes[index].report(of: failure) ?? report }
      return index
    }
    var kept = shrunk.kept.map { all[$0] }
    progress("kept \(kept.count) of \(all.count) steps (\(runs) replays)")

    // 2. Arguments: each kept action's, simplest form first, again from each one that fails.
    var simplified: [(from: String, to: String)] = []
    for index in kept.indices {
      guard case .action(let path, let text, let source) = kept[index],
        let value = try? WireValue(parsingAction: text)
      else { continue }
      var current = value
      while true {
        let forms = ArgumentShrinking.simpler(current)
        let candidates = forms.map { form in
          var candidate = kept
          candidate[index] = .action(path: path, text: form.actionText, source: source)
          return candidate
        }
        guard let found = self.firstFailing(candidates, as: failure, from: &runs, report: &report)
        else { break }
        current = forms[found]
        kept = candidates[found]
      }
      if current != value { simplified.append((text, current.actionText)) }
    }
    return Shrunk(
      failure: failure, report: report, kept: kept, simplified: simplified, runs: runs)
  }

  /// The index of the first of `candidates` that fails as `failure`, tried `jobs` at a time.
  private func firstFailing(
    _ candidates: [[RecordingLine.Step]], as failure: ReproFailure, from runs: inout Int,
    report: inout String
  ) -> Int? {
    var start = 0
    while start < candidates.count {
      let batch = Array(candidates[start..<min(start + self.runner.jobs, candidates.count)])
      let outcomes = self.runAll(batch, from: runs)
      runs += batch.count
      if let index = outcomes.firstIndex(where: { $0.report(of: failure) != nil }) {
        report = outcomes[index].report(of: failure) ?? report
        return start + index
      }
      start += batch.count
    }
    return nil
  }

  /// Replays each of `candidates`, numbered from `first`.
  private func runAll(_ candidates: [[RecordingLine.Step]], from first: Int)
    -> [ReproRunner.Outcome]
  {
    self.runner.run(candidates, from: first)
  }

  private static func said(_ outcome: ReproRunner.Outcome?) -> String {
    switch outcome {
    case .stopped(let why): why
    case .failed(let failures): failures.map { "\($0.failure)" }.joined(separator: ", ")
    case .passed, nil: "every step ran"
    }
  }
}
