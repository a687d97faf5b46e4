/// Isolation: the suite run again with the plugin in a process of its own, as `[plugins]
/// isolate` runs it, and the two results compared. The ``Validator`` runs it, not a child:
/// its check only says so.
extension ValidationSuite {
  static let isolation: [ValidationTest] = [
    ValidationTest(
      "isolation", level: 6,
      "every other test run again with the plugin isolated (patchbay-isolated) gives the same "
        + "result, but those that check this process's calls and memory, and the functions "
        + "tests (a plugin's functions run in their caller's process)"
    ) { _ in .skip("the validator runs it, comparing two runs of the suite") }
  ]
}

extension Validator {
  /// Runs the tests `lines` ran (or, with `--only isolation`, the suite at `strictness`)
  /// again with the plugin isolated, and compares each result with the one in this process.
  func compareIsolated(
    _ plugin: String, strictness: Int, seed: UInt64, ran lines: [Line]
  ) -> ValidationResult {
    let tests = ValidationSuite.tests(strictness: strictness, only: nil).filter {
      !$0.inProcessOnly && $0.name != "isolation"
    }
    var differences: [String] = []
    JobPool.run(tests.count, jobs: self.jobs) { index -> String? in
      let test = tests[index]
      let here =
        lines.first { $0.test.name == test.name }?.result
        ?? self.runner.run(test, plugin: plugin, seed: seed, strictness: strictness).result
      let isolated = self.runner.run(
        test, plugin: plugin, seed: seed, strictness: strictness, isolated: true
      ).result
      guard here.status != isolated.status else { return nil }
      return "\(test.name) is \(here.status.rawValue) in this process, \(isolated.status.rawValue) "
        + "isolated (\(isolated.detail.prefix(200)))"
    } finished: { difference in
      if let difference { differences.append(difference) }
    }
    guard differences.isEmpty else {
      return .fail("isolated, the results differ: " + differences.joined(separator: "; "))
    }
    return .pass("\(tests.count) test(s) gave the same results isolated")
  }
}
