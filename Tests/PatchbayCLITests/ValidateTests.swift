import Foundation
import Testing

/// `patchbay validate`: each flaw of the Flawed fixture is caught by the test meant for it,
/// a good plugin passes, and bad options get one line.
@Suite struct ValidateTests {
  /// The fixture copied to `<flaw>.so` (it reads its flaw from its file name).
  static func flawed(_ flaw: String) throws -> String {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let plugin = folder.appendingPathComponent("\(flaw).so").path
    try FileManager.default.copyItem(
      atPath: "\(CLI.directory)/libTestFixtureFlawed.so", toPath: plugin)
    return plugin
  }

  /// The status line of `test` in the output.
  static func line(_ test: String, in output: String) -> String? {
    output.split(separator: "\n").first { $0.dropFirst(6).hasPrefix("\(test) ") }.map(String.init)
  }

  @Test(
    arguments: [
      ("shared", "lifecycle.ten-instances", "instances share state"),
      ("clock", "determinism", "differs between two runs of the same actions"),
      ("unstable", "state.round-trip", "does not restore to itself"),
      ("anystate", "state.corrupt", "create took empty (0 bytes) as a state"),
      ("misreports", "state.changed-fields", "changed_fields left out `count`, which changed"),
      ("escapes", "render", "holds the control character U+1B"),
      ("misformats", "schema.round-trip", "parses, then formats as"),
      ("halfrefuses", "schema.edges", "was refused"),
      ("remembers", "load.again", "an instance of load 2 starts from another state"),
    ])
  func eachFlawIsCaughtByItsTest(flaw: String, test: String, says: String) async throws {
    let result = try await CLI.run("validate", try Self.flawed(flaw), "--seed", "3")
    #expect(result.exitCode == 1, "\(result.stdout)\(result.stderr)")
    let line = Self.line(test, in: result.stdout)
    #expect(line?.hasPrefix("FAIL  \(test) ") == true, "\(result.stdout)")
    #expect(line?.contains(says) == true, "\(line ?? result.stdout)")
  }

  /// The processor's and the threads' flaws, each run by the one test meant for it: the
  /// allocation, lock and system call counted by patchbay-probe on the audio thread; the host
  /// call from `process`; a [main-thread] host function called from the plugin's own thread;
  /// the parameter block touched after the call, or written during it.
  @Test(
    arguments: [
      ("allocates", "processor.realtime", "in 400 periods, process allocated 400 times"),
      ("locks", "processor.realtime", "process locked (pthread_mutex_lock × 400)"),
      ("prints", "processor.realtime", "process made system calls (fputs × 400)"),
      ("sends", "threads", "process called host->send from the audio thread (64 host call(s)"),
      (
        "offthread", "threads",
        "a [main-thread] host function was called from a thread of the plugin's own (36 "
          + "time(s)): patchbay.shared/1 called from another thread: call it from create or reduce"
      ),
      (
        "keepsblock", "processor.parameters",
        "crashed in render, after period 0: patchbay: the plugin touched the parameter block "
          + "while it was not lent out"
      ),
      (
        "writesblock", "processor.parameters",
        "crashed in process: dev.patchbay.fixture.flawed, period 0 of 1 frames: patchbay: the "
          + "plugin wrote to the parameter block, which it may only read"
      ),
    ])
  func eachProcessorFlawIsCaughtByItsTest(flaw: String, test: String, says: String) async throws {
    let result = try await CLI.run(
      "validate", try Self.flawed(flaw), "--seed", "3", "--only", test)
    #expect(result.exitCode == 1, "\(result.stdout)\(result.stderr)")
    let line = try #require(Self.line(test, in: result.stdout), "\(result.stdout)")
    #expect(line.hasPrefix("FAIL  \(test) "), "\(line)")
    #expect(line.contains(says), "\(line)")
  }

  /// A processor that crashes on the validator's audio thread is named as the host names it
  /// live: the Hostile fixture's `crash` (seed 10's first action, sent before the first period).
  @Test func aProcessorCrashingOnTheAudioThreadIsNamedWithItsCall() async throws {
    let result = try await CLI.run(
      "validate", "\(CLI.directory)/libTestFixtureHostile.so", "--seed", "10", "--only",
      "processor.parameters")
    #expect(result.exitCode == 1)
    let line = try #require(Self.line("processor.parameters", in: result.stdout))
    #expect(
      line.contains(
        "crashed in process: dev.patchbay.fixture-hostile, period 0 of 1 frames: patchbay: a "
          + "plugin crashed the app with SIGSEGV (invalid memory access) in its process: "
          + "feature dev.patchbay.fixture-hostile ("), "\(line)")
  }

  /// A processor that reads what is in its buffer passes, with the cost of subnormal samples
  /// there reported beside silence's.
  @Test func aCleanProcessorPassesWithItsSubnormalCostReported() async throws {
    let filters = try await CLI.run(
      "validate", try Self.flawed("filters"), "--seed", "3", "--only", "processor.realtime")
    #expect(filters.exitCode == 0, "\(filters.stdout)")
    let line = try #require(Self.line("processor.realtime", in: filters.stdout))
    #expect(
      line.contains(
        #/PASS  processor\.realtime +dev\.patchbay\.fixture\.flawed: 400 periods, none; subnormal input \d+\.\d\d× the time of silence/#
      ), "\(line)")
  }

  /// The suite run again isolated: a plugin that needs a socket (which the isolated plugin's
  /// sandbox refuses) passes in the host's process and fails isolated, and the isolation test
  /// names the tests that differ; the good fixture gives the same results both ways.
  @Test func isolationComparesTheSuiteRunIsolated() async throws {
    let network = try await CLI.run(
      "validate", try Self.flawed("needsnetwork"), "--seed", "3", "--only", "isolation")
    #expect(network.exitCode == 1, "\(network.stdout)")
    let line = try #require(Self.line("isolation", in: network.stdout))
    #expect(line.hasPrefix("FAIL  isolation "), "\(line)")
    #expect(line.contains("state.round-trip is PASS in this process, FAIL isolated ("), "\(line)")
    #expect(line.contains("SIGABRT"), "\(line)")
    let good = try await CLI.run(
      "validate", try Self.flawed("good"), "--seed", "3", "--only", "isolation")
    #expect(good.exitCode == 0, "\(good.stdout)")
    #expect(
      good.stdout.contains(
        "PASS  isolation                      16 test(s) gave the same results isolated"),
      "\(good.stdout)")
  }

  /// The probe's own arguments, as the runner passes them: a test it does not know, a missing
  /// value and an extra argument each get one line and exit status 2.
  @Test(
    arguments: [
      (["--child", "nosuch", "x.so"], "patchbay-probe: --child nosuch: no such test"),
      (["--child", "render", "x.so", "--seed"], "patchbay-probe: --seed needs a value"),
      (["--child", "render", "x.so", "y.so"], "patchbay-probe: unexpected argument 'y.so'"),
      (["x.so"], "patchbay-probe: usage: --child TEST PLUGIN [--seed N] [--strictness N]"),
    ])
  func theProbeRefusesBadArgumentsInOneLine(arguments: [String], says: String) async throws {
    let result = try await CLI.run(executable: "patchbay-probe", arguments: arguments)
    #expect(result.exitCode == 2)
    #expect(result.stderr == says + "\n", "\(result.stderr)")
    #expect(result.stdout.isEmpty)
  }

  /// An exported function that divides by its argument, called with 0 through libffi; and
  /// Theory's, which crashed on interval_name(INT32_MIN) until the validator found it.
  @Test func aFunctionThatCrashesOnAnEdgeFailsFunctionsEdges() async throws {
    let result = try await CLI.run(
      "validate", try Self.flawed("badfunction"), "--seed", "3", "--only", "functions.edges")
    #expect(result.exitCode == 1)
    let line = try #require(Self.line("functions.edges", in: result.stdout))
    #expect(line.contains("crashed in call percent(0)"), "\(line)")
    #expect(line.contains("SIGFPE"), "\(line)")
    let theory = try await CLI.run(
      "validate", "\(CLI.directory)/libTheory.so", "--seed", "3", "--only", "functions.edges")
    #expect(theory.exitCode == 0, "\(theory.stdout)")
    #expect(Self.line("functions.edges", in: theory.stdout)?.hasPrefix("PASS") == true)
  }

  /// The Tuner imports Theory's functions: without Theory as a provider they do not resolve.
  @Test func importsResolveAgainstTheProvidersGiven() async throws {
    let alone = try await CLI.run("validate", "Tuner", "--only", "functions.imports")
    #expect(alone.exitCode == 1)
    let line = try #require(Self.line("functions.imports", in: alone.stdout))
    #expect(
      line.contains(
        "dev.patchbay.theory-plugin.note_frequency as double(int32, double): no provider "
          + "'dev.patchbay.theory-plugin' (give it with --provider)"), "\(line)")
    let provided = try await CLI.run(
      "validate", "Tuner", "--only", "functions.imports", "--provider", "Theory")
    #expect(provided.exitCode == 0, "\(provided.stdout)")
    #expect(
      provided.stdout.contains(
        "PASS  functions.imports              2 import(s) resolved: "
          + "dev.patchbay.theory-plugin.note_frequency, dev.patchbay.theory-plugin.note_name"))
  }

  @Test func aCrashFailsTheTestNamesTheCallAndIsShrunkToOneAction() async throws {
    let result = try await CLI.run(
      "validate", try Self.flawed("crashes"), "--seed", "3", "--only", "fuzz.actions")
    #expect(result.exitCode == 1)
    let line = try #require(Self.line("fuzz.actions", in: result.stdout))
    #expect(line.hasPrefix("FAIL  fuzz.actions "))
    #expect(line.contains("crashed in action 150: reduce add(n: 13)"), "\(line)")
    #expect(line.contains("SIGSEGV"), "\(line)")
    #expect(result.stdout.contains("reproduce: seed 3: add(n: 13)\n"), "\(result.stdout)")
  }

  /// A WebAssembly plugin's trap (the Hostile fixture hands the host a bad pointer) fails
  /// fuzz.actions at once, named and shrunk, as a native plugin's crash does: the instance
  /// goes on after a trap, and fuzzing on would only meet it again and again.
  @Test func aWebAssemblyTrapFailsFuzzingAtOnce() async throws {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("patchbay-validate-wasm-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let hostile = try await CLI.wasmFixture("hostile", in: folder)
    let result = try await CLI.run("validate", hostile, "--seed", "1", "--only", "fuzz.actions")
    #expect(result.exitCode == 1)
    let line = try #require(Self.line("fuzz.actions", in: result.stdout))
    #expect(
      line.contains("crashed in action 1: reduce badPointer: ")
        && line.contains("it called the host's send with 2147483647 bytes at 16")
        && line.contains("(shrunk to 1 of 2 action(s)"), "\(line)")
    #expect(result.stdout.contains("reproduce: seed 1: badPointer\n"), "\(result.stdout)")
  }

  /// A call that does not return is named by the child's watchdog in --call-seconds, as the
  /// app's watchdog names it, and shrunk as a crash is; the tests after it still run.
  @Test func aHangIsNamedByTheWatchdogShrunkAndTheRestStillRun() async throws {
    let result = try await CLI.run(
      "validate", try Self.flawed("spins"), "--seed", "3", "--call-seconds", "2")
    #expect(result.exitCode == 1)
    let line = try #require(Self.line("fuzz.actions", in: result.stdout))
    #expect(
      line.contains(
        "hung: a call did not return within 2 s (--call-seconds) in action 211: reduce add(n: 17)"
      ), "\(line)")
    #expect(result.stdout.contains("reproduce: seed 3: add(n: 17)\n"), "\(result.stdout)")
    // Two more tests send add(n: 17): determinism, and the destroy right after a reduce.
    #expect(result.stdout.contains(": 17 passed, 3 failed, 2 skipped"), "\(result.stdout)")
    #expect(Self.line("render", in: result.stdout)?.hasPrefix("PASS") == true)
  }

  /// A plugin that spins in one action's reduce (`reset`) fails the tests that send it,
  /// naming the call, and passes the rest; so does one whose `process` spins.
  @Test(arguments: [
    ("resetspins", "reduce reset", 8, 12, "load.generations", "schema.round-trip"),
    ("processspins", "process: dev.patchbay.fixture.flawed", 16, 4, "processor.periods", "render"),
  ])
  func aSpinningCallFailsTheTestsThatReachIt(
    flaw: String, call: String, passed: Int, failed: Int, failing: String, passing: String
  ) async throws {
    let result = try await CLI.run(
      "validate", try Self.flawed(flaw), "--seed", "3", "--call-seconds", "2")
    #expect(result.exitCode == 1)
    #expect(
      result.stdout.contains(": \(passed) passed, \(failed) failed, 2 skipped"),
      "\(result.stdout)")
    let hung = try #require(Self.line(failing, in: result.stdout))
    #expect(hung.contains("hung: a call did not return within 2 s (--call-seconds) in "))
    #expect(hung.contains(call), "\(hung)")
    #expect(Self.line(passing, in: result.stdout)?.hasPrefix("PASS") == true)
  }

  /// --timeout is for a test that is merely slow: it counts the child's CPU time, so a busy
  /// machine does not make a test time out.
  @Test func aTestThatOutrunsItsCPUTimeIsTooSlow() async throws {
    let result = try await CLI.run(
      "validate", try Self.flawed("processspins"), "--seed", "3", "--call-seconds", "600",
      "--timeout", "1", "--only", "processor.periods")
    #expect(result.exitCode == 1)
    let line = try #require(Self.line("processor.periods", in: result.stdout))
    #expect(
      line.contains(
        "too slow: used 1.0 seconds of CPU time without finishing (--timeout) in process: "
          + "dev.patchbay.fixture.flawed"), "\(line)")
  }

  /// The Hostile fixture's actions switch its processor to NaN, +Inf, +60 dBFS, a crash or a
  /// hang. Seed 1's first action is `loud` and seed 3's `nanOnce`, so each fails at the first
  /// period under MIDI, the same way every run. (Seed 2 sends `crashThread` first: a thread of
  /// the plugin's own that crashes whenever the machine lets it run, which no host can order.)
  @Test(arguments: [
    ("1", "after loud: sample 0 (frame 0) is 1000.0, beyond ±4"),
    ("3", "after nanOnce: sample 0 (frame 0) is NaN"),
  ])
  func aProcessorWritingBadSamplesFails(seed: String, problem: String) async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let plugin = folder.appendingPathComponent("hostile.so").path
    try FileManager.default.copyItem(
      atPath: "\(CLI.directory)/libTestFixtureHostile.so", toPath: plugin)
    let result = try await CLI.run(
      "validate", plugin, "--seed", seed, "--only", "processor.periods", "--timeout", "20")
    #expect(result.exitCode == 1)
    let line = try #require(Self.line("processor.periods", in: result.stdout))
    #expect(line.hasPrefix("FAIL  processor.periods "), "\(line)")
    #expect(
      line.contains(
        "dev.patchbay.fixture-hostile at 44100 Hz, 1 channel(s), a 1-frame period under MIDI "
          + problem), "\(line)")
  }

  @Test func aGoodPluginPassesAndJSONSaysTheSame() async throws {
    let good = try Self.flawed("good")
    let text = try await CLI.run("validate", good, "--seed", "5")
    #expect(text.exitCode == 0, "\(text.stdout)\(text.stderr)")
    #expect(text.stdout.contains(": 20 passed, 0 failed, 2 skipped"), "\(text.stdout)")
    let json = try await CLI.run("validate", good, "--seed", "5", "--json", "--only", "render")
    #expect(json.exitCode == 0)
    let reports = try #require(
      JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
    let tests = try #require(reports.first?["tests"] as? [[String: Any]])
    #expect(tests.map { $0["name"] as? String } == ["render"])
    #expect(tests.first?["status"] as? String == "PASS")
    #expect(reports.first?["seed"] as? Int == 5)
  }

  @Test func badOptionsGetOneLine() async throws {
    let strictness = try await CLI.run("validate", "Counter", "--strictness", "11")
    #expect(strictness.exitCode == 2)
    #expect(strictness.stderr.contains("--strictness 11: give 1 (fast) to 10 (everything)."))
    let only = try await CLI.run("validate", "Counter", "--only", "nope")
    #expect(only.exitCode == 2)
    #expect(only.stderr.contains("--only nope: no such test; the tests are load.descriptor"))
    let missing = try await CLI.run("validate", "/nowhere/libNope.so")
    #expect(missing.exitCode == 1)
    #expect(missing.stderr.contains("/nowhere/libNope.so"), "\(missing.stderr)")
    let timeout = try await CLI.run("validate", "Counter", "--timeout", "0")
    #expect(timeout.exitCode == 2)
    #expect(
      timeout.stderr.contains("--timeout 0, --call-seconds 5: give each 1 second or more."),
      "\(timeout.stderr)")
    let none = try await CLI.run("validate")
    #expect(none.exitCode == 2)
    #expect(none.stderr.contains("name a plugin to validate"))
  }
}
