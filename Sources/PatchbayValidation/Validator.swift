import Foundation

/// Runs the suite on one plugin, each test in a child process, and shrinks a failing action
/// sequence to the shortest one that still fails.
///
/// ```swift
/// let validator = Validator(runner: ChildRunner(
///   executable: "/usr/bin/patchbay", probe: "/usr/bin/patchbay-probe", timeout: .seconds(120)))
/// for line in validator.validate("libCounter.so", strictness: 5, seed: 7, only: nil) { … }
/// ```
public struct Validator: Sendable {
  public let runner: ChildRunner
  /// The most child runs one shrink may take.
  public var shrinkBudget = 40

  public init(runner: ChildRunner) { self.runner = runner }

  /// One finished test.
  public struct Line: Sendable {
    public let test: ValidationTest
    public let result: ValidationResult
    public let duration: Duration
  }

  /// Runs the tests for `strictness` (or the one named `only`), calling `report` after each.
  public func validate(
    _ plugin: String, strictness: Int, seed: UInt64, only: String?,
    report: (Line) -> Void = { _ in }
  ) -> [Line] {
    ValidationSuite.tests(strictness: strictness, only: only).map { test in
      let start = ContinuousClock.now
      var outcome = self.runner.run(test, plugin: plugin, seed: seed, strictness: strictness)
      if outcome.result.status == .fail, let stoppedAt = outcome.stoppedAt,
        test.name == "fuzz.actions"
      {
        outcome = self.shrink(test, plugin, seed, strictness, failing: outcome, at: stoppedAt)
      }
      let line = Line(test: test, result: outcome.result, duration: ContinuousClock.now - start)
      report(line)
      return line
    }
  }

  /// The shortest run of the actions up to `index` that still fails: the failing action alone
  /// first, then the run with chunks left out (delta debugging), within ``shrinkBudget``.
  func shrink(
    _ test: ValidationTest, _ plugin: String, _ seed: UInt64, _ strictness: Int,
    failing: ChildRunner.Outcome, at index: Int
  ) -> ChildRunner.Outcome {
    var best = failing
    var kept = Array(0...index)
    var runs = 0
    func fails(_ candidate: [Int]) -> Bool {
      guard runs < self.shrinkBudget else { return false }
      runs += 1
      let outcome = self.runner.run(
        test, plugin: plugin, seed: seed, strictness: strictness, keep: candidate)
      guard outcome.result.status == .fail else { return false }
      best = outcome
      return true
    }
    if fails([index]) {
      kept = [index]
    } else {
      var chunks = 2
      while kept.count >= 2, runs < self.shrinkBudget {
        let size = max(1, kept.count / chunks)
        var removed = false
        for start in stride(from: 0, to: kept.count, by: size) {
          var candidate = kept
          candidate.removeSubrange(start..<min(start + size, kept.count))
          if !candidate.isEmpty, fails(candidate) {
            kept = candidate
            chunks = max(chunks - 1, 2)
            removed = true
            break
          }
        }
        if !removed {
          if size == 1 { break }
          chunks = min(chunks * 2, kept.count)
        }
      }
    }
    var result = best.result
    result.reproduction = Reproduction(
      seed: seed, actions: kept.map { best.actions[$0] ?? failing.actions[$0] ?? "action \($0)" })
    result.detail += " (shrunk to \(kept.count) of \(index + 1) action(s) in \(runs) run(s))"
    return ChildRunner.Outcome(result: result, actions: best.actions, stoppedAt: best.stoppedAt)
  }
}
