import Foundation

/// Runs the suite on one plugin, each test in a child process, ``jobs`` at a time, and shrinks
/// a failing action sequence to the shortest one that still fails.
///
/// ```swift
/// let validator = Validator(runner: ChildRunner(
///   executable: "/usr/bin/patchbay", probe: "/usr/bin/patchbay-probe", timeout: .seconds(30)))
/// for line in validator.validate("libCounter.so", strictness: 5, seed: 7, only: nil) { … }
/// ```
package struct Validator: Sendable {
  package let runner: ChildRunner
  /// The most child runs one shrink may take.
  package var shrinkBudget = 40
  /// How many tests run at once, each in its child: a hang costs its test the watchdog's
  /// seconds, and the others go on meanwhile.
  package var jobs = ProcessInfo.processInfo.activeProcessorCount

  package init(runner: ChildRunner) { self.runner = runner }

  /// One finished test.
  package struct Line: Sendable {
    package let test: ValidationTest
    package let result: ValidationResult
    package let duration: Duration
  }

  /// Runs the tests for `strictness` (or the one named `only`), calling `report` after each,
  /// in the suite's order; `isolated`: with the plugin in a process of its own. The isolation
  /// test, which compares with the others' results, runs once they are in.
  package func validate(
    _ plugin: String, strictness: Int, seed: UInt64, only: String?, isolated: Bool = false,
    report: (Line) -> Void = { _ in }
  ) -> [Line] {
    let tests = ValidationSuite.tests(strictness: strictness, only: only)
    let others = tests.filter { $0.name != "isolation" }
    var lines: [Line] = []
    JobPool.run(others.count, jobs: self.jobs) { index in
      self.line(others[index], plugin, strictness: strictness, seed: seed, isolated: isolated)
    } finished: { line in
      lines.append(line)
      report(line)
    }
    if let test = tests.first(where: { $0.name == "isolation" }) {
      let start = ContinuousClock.now
      let result = self.compareIsolated(plugin, strictness: strictness, seed: seed, ran: lines)
      lines.append(Line(test: test, result: result, duration: ContinuousClock.now - start))
      report(lines[lines.count - 1])
    }
    return lines
  }

  /// Runs one test in its child (shrinking a fuzzing failure), or skips it.
  private func line(
    _ test: ValidationTest, _ plugin: String, strictness: Int, seed: UInt64, isolated: Bool
  ) -> Line {
    let start = ContinuousClock.now
    if isolated, test.inProcessOnly {
      let result = ValidationResult.skip(
        "it checks what only a plugin loaded in this process shows (its processor's calls and "
          + "memory, its functions): run it without --isolated")
      return Line(test: test, result: result, duration: ContinuousClock.now - start)
    }
    var outcome = self.runner.run(
      test, plugin: plugin, seed: seed, strictness: strictness, isolated: isolated)
    if outcome.result.status == .fail, let stoppedAt = outcome.stoppedAt,
      test.name == "fuzz.actions"
    {
      outcome = self.shrink(
        test, plugin, seed, strictness, failing: outcome, at: stoppedAt, isolated: isolated)
    }
    return Line(test: test, result: outcome.result, duration: ContinuousClock.now - start)
  }

  /// The shortest run of the actions up to `index` that still fails: the failing action alone
  /// first, then the run with chunks left out (delta debugging), within ``shrinkBudget``.
  func shrink(
    _ test: ValidationTest, _ plugin: String, _ seed: UInt64, _ strictness: Int,
    failing: ChildRunner.Outcome, at index: Int, isolated: Bool
  ) -> ChildRunner.Outcome {
    var best = failing
    var kept = Array(0...index)
    var runs = 0
    guard index > 0 else {
      // The first action failed: there is nothing to leave out.
      var result = failing.result
      result.reproduction = Reproduction(
        seed: seed, actions: [failing.actions[index] ?? "action \(index)"],
        feature: failing.feature)
      return ChildRunner.Outcome(result: result, actions: failing.actions, stoppedAt: index)
    }
    func fails(_ candidate: [Int]) -> Bool {
      guard runs < self.shrinkBudget else { return false }
      runs += 1
      let outcome = self.runner.run(
        test, plugin: plugin, seed: seed, strictness: strictness, keep: candidate,
        isolated: isolated)
      guard outcome.result.status == .fail else { return false }
      best = outcome
      return true
    }
    if fails([index]) {
      kept = [index]
    } else if failing.outranCPU {
      // The run as a whole used its CPU time, not one action: a shorter run only passes, and
      // each try costs the whole budget again.
      var result = failing.result
      result.detail += " (the whole run of \(index + 1) action(s) did; the last alone does not)"
      result.reproduction = Reproduction(
        seed: seed, actions: kept.map { failing.actions[$0] ?? "action \($0)" },
        feature: failing.feature)
      return ChildRunner.Outcome(
        result: result, actions: failing.actions, stoppedAt: index, outranCPU: true)
    } else {
      kept = DeltaDebugging.minimize(kept, budget: self.shrinkBudget - runs, fails: fails).kept
    }
    var result = best.result
    result.reproduction = Reproduction(
      seed: seed, actions: kept.map { best.actions[$0] ?? failing.actions[$0] ?? "action \($0)" },
      feature: best.feature ?? failing.feature)
    result.detail += " (shrunk to \(kept.count) of \(index + 1) action(s) in \(runs) run(s))"
    return ChildRunner.Outcome(result: result, actions: best.actions, stoppedAt: best.stoppedAt)
  }
}
