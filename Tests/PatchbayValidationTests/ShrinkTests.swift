import Foundation
import Testing

@testable import PatchbayValidation

/// How `validate` shrinks a failing `fuzz.actions` run (Validator.swift), driven through a
/// stand-in child: a shell script that counts its runs and answers PASS, as a run of the last
/// action alone does when no one action is at fault.
@Suite struct ShrinkTests {
  /// A folder with `child`, which appends a line to `runs` and prints a passing result.
  static func passingChild() throws -> (child: String, runs: String) {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("patchbay-shrink-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let (child, runs) = (folder.appendingPathComponent("child").path, folder.path + "/runs")
    let script = """
      #!/bin/sh
      echo run >> '\(runs)'
      echo '{"status":"PASS","detail":"1 action(s), every snapshot decoded"}'
      """
    try script.write(toFile: child, atomically: true, encoding: .utf8)
    try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: child)
    return (child, runs)
  }

  /// How many times the child ran: the lines in `runs` (0 when it never did, and the failing
  /// detail then says why, such as "could not start …").
  static func count(_ runs: String) -> Int {
    ((try? String(contentsOfFile: runs, encoding: .utf8)) ?? "").split(separator: "\n").count
  }

  /// A run ended for the CPU time all its actions used is not delta-debugged: every shorter
  /// run passes, and each try would cost the whole budget again (949 s of a CI run did). One
  /// try of the last action alone, then the whole run is the reproduction.
  @Test func aRunThatIsTooSlowAsAWholeIsTriedOnceNotShrunk() throws {
    let (child, runs) = try Self.passingChild()
    let validator = Validator(
      runner: ChildRunner(executable: child, probe: child, timeout: .seconds(30)))
    let test = try #require(ValidationSuite.test(named: "fuzz.actions"))
    let actions = Dictionary(uniqueKeysWithValues: (0..<50).map { ($0, "increment") })
    var failing = ChildRunner.Outcome(
      result: .fail("too slow: used 30 seconds of CPU time without finishing (--timeout) in …"),
      actions: actions, stoppedAt: 49, feature: "dev.patchbay.counter")
    failing.outranCPU = true
    let shrunk = validator.shrink(
      test, "Counter.wasm", 1, 5, failing: failing, at: 49, isolated: false)
    #expect(Self.count(runs) == 1, "\(shrunk.result.detail)")
    #expect(shrunk.result.status == .fail)
    #expect(
      shrunk.result.detail.hasSuffix(
        "(the whole run of 50 action(s) did; the last alone does not)"),
      "\(shrunk.result.detail)")
    #expect(shrunk.result.reproduction?.actions.count == 50)
  }

  /// A failure that is not the run's CPU time is shrunk by delta debugging as before: here
  /// every try passes, so it spends its budget and keeps the whole run.
  @Test func anotherFailureIsDeltaDebuggedWithinItsBudget() throws {
    let (child, runs) = try Self.passingChild()
    var validator = Validator(
      runner: ChildRunner(executable: child, probe: child, timeout: .seconds(30)))
    validator.shrinkBudget = 6
    let test = try #require(ValidationSuite.test(named: "fuzz.actions"))
    let failing = ChildRunner.Outcome(
      result: .fail("crashed (SIGSEGV) in action 9: reduce increment"),
      actions: Dictionary(uniqueKeysWithValues: (0..<10).map { ($0, "increment") }),
      stoppedAt: 9)
    let shrunk = validator.shrink(
      test, "Counter.so", 1, 5, failing: failing, at: 9, isolated: false)
    #expect(Self.count(runs) == 6, "\(shrunk.result.detail)")
    #expect(
      shrunk.result.detail.hasSuffix("(shrunk to 10 of 10 action(s) in 6 run(s))"),
      "\(shrunk.result.detail)")
  }

  /// A WebAssembly plugin's code is interpreted: its tests get ten times `--timeout` of CPU.
  @Test func aWebAssemblyPluginGetsTenTimesTheCPUTime() {
    #expect(ChildRunner.cpuSeconds(.seconds(30), plugin: "/p/Counter.wasm") == 300)
    #expect(ChildRunner.cpuSeconds(.seconds(30), plugin: "/p/libCounter.so") == 30)
    #expect(ChildRunner.cpuSeconds(.milliseconds(1500), plugin: "Counter") == 1.5)
  }
}
