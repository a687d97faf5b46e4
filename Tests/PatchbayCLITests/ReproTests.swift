import Foundation
import Testing

/// `patchbay repro`: a run of the Lock fixture (Plugins/Fixtures/Numbered/Lock.swift) whose
/// fault only four particular actions reach, among hundreds that do not matter, shrunk to
/// those four for each kind of failure; the script it writes fails with the plugin and runs
/// clean once the plugin is mended.
@Suite struct ReproTests {
  /// A folder with `libLock.so` (the fault), `libLockFixed.so` (mended), an app of one lock,
  /// and a script of `noise` random actions with the code's four dials spread among them,
  /// the fourth last.
  struct LockRun {
    let folder: URL
    let config: String

    init(fourth: Int, noise: Int = 300, beforeLast: [String] = [], callSeconds: Int = 1) throws {
      self.folder = try numberedFixtureFolder(["Lock", "LockFixed"], prefix: "repro")
      self.config = self.folder.appendingPathComponent("lock.toml").path
      try """
      [app]
      name = "Lock"
      root = "lock"

      [plugins]
      search-paths = ["."]
      load = ["Lock"]

      [limits]
      call-seconds = \(callSeconds)

      [[feature]]
      key = "lock"
      id = "dev.patchbay.fixture.lock"
      """.write(toFile: self.config, atomically: true, encoding: .utf8)
      // Noise the same every run: turns of -50…50 and dials the code does not have.
      var lines = (0..<noise).map { index in
        index % 2 == 0
          ? "send lock turn(by: \(index * 37 % 101 - 50))"
          : "send lock dial(\([0, 6, 8][index % 3]))"
      }
      for (index, digit) in [3, 1, 4].enumerated() {
        lines.insert("send lock dial(\(digit))", at: (index + 1) * noise / 4)
      }
      lines += beforeLast
      lines.append("send lock dial(\(fourth))")
      try lines.joined(separator: "\n").write(
        to: self.folder.appendingPathComponent("run.script"), atomically: true, encoding: .utf8)
    }

    func path(_ name: String) -> String { self.folder.appendingPathComponent(name).path }

    /// Runs the script with --record; the recording's path.
    func record() async throws -> (String, CLI.Result) {
      let recording = self.path("run.jsonl")
      let run = try await CLI.run(
        "run", self.config, "--script", self.path("run.script"), "--record", recording)
      return (recording, run)
    }

    /// Mends the plugin: the app loads the mended build (the same feature id).
    func mend() throws {
      var text = try String(contentsOfFile: self.config, encoding: .utf8)
      text = text.replacingOccurrences(of: #"load = ["Lock"]"#, with: #"load = ["LockFixed"]"#)
      try text.write(toFile: self.config, atomically: true, encoding: .utf8)
    }
  }

  /// The four actions of the failure, in order, out of 304; each kind of failure the same. A
  /// run has no sound here, so its NaN shows only in the replays, which play a period after
  /// each step.
  @Test(arguments: [
    (1, "SIGILL", "reduce"), (5, "a hang", "reduce"), (9, "NaN or infinite samples", "process"),
  ])
  func aFailureShrinksToTheFourActionsItNeeds(fourth: Int, kind: String, call: String)
    async throws
  {
    let lock = try LockRun(fourth: fourth)
    defer { try? FileManager.default.removeItem(at: lock.folder) }
    let (recording, run) = try await lock.record()
    #expect(run.exitCode == (kind.hasPrefix("NaN") ? 0 : 3), "\(run.stderr)")
    let out = lock.path("out")
    // In this checkout, whose build folder lists Lock's source: a TestStore test of Lock.
    let repro = try await CLI.run("repro", recording, "--out", out, in: CheckTests.root)
    #expect(repro.exitCode == 0, "\(repro.stderr)")
    let failure = "\(kind) in dev.patchbay.fixture.lock's \(call)"
    #expect(repro.stdout.contains(failure), "\(repro.stdout)")
    let kept = ["dial(3)", "dial(1)", "dial(4)", "dial(\(fourth))"].map { "  send lock \($0)" }
    let said = repro.stdout.split(separator: "\n").map(String.init)
    #expect(said.contains { $0.hasPrefix("kept 4 of 304 steps, dropped 300, in ") }, "\(said)")
    let listed = said.drop { !$0.hasPrefix("kept 4 of 304 steps, dropped") }.dropFirst().prefix(4)
    #expect(Array(listed) == kept)

    // What it wrote fails as the run did, and runs clean once the plugin is mended.
    let script = try String(contentsOfFile: "\(out)/repro.script", encoding: .utf8)
    #expect(script.split(separator: "\n").filter { $0.hasPrefix("send ") }.count == 4)
    let test = try String(contentsOfFile: "\(out)/LockReproTests.swift", encoding: .utf8)
    if kind.hasPrefix("NaN") {
      // A processor's fault: a TestStore runs no processor, the built plugin does.
      #expect(said.contains { $0.hasPrefix("the test is through the built plugin") }, "\(said)")
      #expect(test.contains(#"try await app.send("lock", "dial(\#(fourth))")"#))
    } else {
      let source = "\(CheckTests.root)/Plugins/Fixtures/Numbered/Lock.swift"
      #expect(said.contains("the test is a TestStore test of Lock (\(source))"), "\(said)")
      #expect(test.contains("import NumberedFixture\n"))
      #expect(test.contains("    await store.send(.dial(3))\n    await store.send(.dial(1))\n"))
      #expect(test.contains("    await store.send(.dial(\(fourth)))\n  }"))
    }
    #expect(test.contains("processExitsWith: .success"))
    let shrunk = "\(out)/repro.jsonl"
    let replay = try await CLI.run("replay", shrunk, "--report-failures")
    #expect(replay.stderr.contains("lock"), "\(replay.stderr)")
    #expect(replay.exitCode == (kind.hasPrefix("NaN") ? 0 : 3), "\(replay.stderr)")
    if !kind.hasPrefix("NaN") {
      let again = try await CLI.run("run", lock.config, "--script", "\(out)/repro.script")
      #expect(again.exitCode == 3, "\(again.stderr)")
    }
    try lock.mend()
    let mended = try await CLI.run("replay", shrunk, "--report-failures")
    #expect(mended.exitCode == 0)
    #expect(mended.stderr.isEmpty, "\(mended.stderr)")
    let mendedRun = try await CLI.run("run", lock.config, "--script", "\(out)/repro.script")
    #expect(mendedRun.exitCode == 0, "\(mendedRun.stderr)")
  }

  /// The flight file a crash report names shrinks as a recording does, with no --record.
  @Test func theFlightFileACrashNamesShrinks() async throws {
    let lock = try LockRun(fourth: 1, noise: 100)
    defer { try? FileManager.default.removeItem(at: lock.folder) }
    let run = try await CLI.run("run", lock.config, "--script", lock.path("run.script"))
    #expect(run.exitCode == 3)
    let named = try #require(run.stderr.firstRange(of: "Its last actions: "))
    let flight = String(run.stderr[named.upperBound...].prefix { $0 != " " })
    // Away from any package, and the plugin copied from its build folder: no source found.
    let repro = try await CLI.run(
      "repro", flight, "--out", lock.path("out"), in: lock.folder.path)
    #expect(repro.exitCode == 0, "\(repro.stderr)")
    #expect(repro.stdout.contains("kept 4 of"), "\(repro.stdout)")
    #expect(
      repro.stdout.contains(
        "the test is through the built plugin (PluginHarness): no Swift source of "
          + "dev.patchbay.fixture.lock was found"), "\(repro.stdout)")
  }

  /// An app goes on after a processor's NaN: its flight file is copied then, the copy named in
  /// the log, and it shrinks to the four actions.
  @Test func aNaNMuteKeepsAFlightFileThatShrinks() async throws {
    let lock = try LockRun(fourth: 9, noise: 40)
    defer { try? FileManager.default.removeItem(at: lock.folder) }
    // The run plays (the paced null device) a while after the fourth dial.
    try (String(contentsOfFile: lock.path("run.script"), encoding: .utf8) + "\nwait 300\n")
      .write(toFile: lock.path("run.script"), atomically: true, encoding: .utf8)
    let run = try await CLI.run("run", lock.config, "--script", lock.path("run.script"))
    #expect(run.exitCode == 0, "\(run.stderr)")
    let named = try #require(
      run.stderr.firstRange(of: "its last actions up to this failure: "), "\(run.stderr)")
    let kept = String(run.stderr[named.upperBound...].prefix { $0 != " " })
    #expect(kept.hasSuffix("-dev.patchbay.fixture.lock.flight"))
    let repro = try await CLI.run("repro", kept, "--out", lock.path("out"))
    #expect(repro.exitCode == 0, "\(repro.stderr)")
    #expect(repro.stdout.contains("NaN or infinite samples in dev.patchbay.fixture.lock's process"))
    #expect(repro.stdout.contains("  send lock dial(9)\n"), "\(repro.stdout)")
  }

  /// Numbers are made simpler while the failure stays: `dial(2)` crashes the lock only with
  /// the dial at 10 or more (the dial goes round at 100), so the turns it keeps add up to 10
  /// exactly.
  @Test func argumentsShrinkToTheSmallestThatStillFails() async throws {
    let lock = try LockRun(fourth: 2, noise: 12, beforeLast: ["send lock turn(by: 137)"])
    defer { try? FileManager.default.removeItem(at: lock.folder) }
    let (recording, run) = try await lock.record()
    #expect(run.exitCode == 3, "\(run.stderr)")
    let repro = try await CLI.run("repro", recording, "--out", lock.path("out"))
    #expect(repro.exitCode == 0, "\(repro.stderr)")
    let turns = repro.stdout.split(separator: "\n").compactMap { line -> Int? in
      guard let by = line.firstRange(of: "  send lock turn(by: ") else { return nil }
      return Int(line[by.upperBound...].prefix { $0 != ")" })
    }
    #expect(turns.reduce(0, +) == 10, "\(repro.stdout)")
    #expect(repro.stdout.contains("simpler: turn(by: "), "\(repro.stdout)")
  }

  /// A failure that comes back in only some replays is flaky: said with the count, and not
  /// shrunk (exit 1).
  @Test func aFlakyFailureIsReportedWithItsCount() async throws {
    let lock = try LockRun(fourth: 7, noise: 20)
    defer { try? FileManager.default.removeItem(at: lock.folder) }
    let once = lock.path("crash-once")
    #expect(FileManager.default.createFile(atPath: once, contents: nil))
    let run = try await CLI.run(
      "run", lock.config, "--script", lock.path("run.script"), "--record", lock.path("run.jsonl"),
      environment: ["PATCHBAY_LOCK_FLAKY": once])
    #expect(run.exitCode == 3)
    #expect(FileManager.default.createFile(atPath: once, contents: nil))
    let repro = try await CLI.run(
      "repro", lock.path("run.jsonl"), "--jobs", "1", environment: ["PATCHBAY_LOCK_FLAKY": once])
    #expect(repro.exitCode == 1)
    #expect(
      repro.stderr.contains(
        "flaky: SIGILL in dev.patchbay.fixture.lock's reduce came back in 1 of 3 replays"),
      "\(repro.stderr)")
  }

  /// A run that did not fail has nothing to shrink, and says so.
  @Test func aRunThatDoesNotFailIsNotShrunk() async throws {
    let lock = try LockRun(fourth: 2, noise: 10)
    defer { try? FileManager.default.removeItem(at: lock.folder) }
    let (recording, run) = try await lock.record()
    #expect(run.exitCode == 0)
    let repro = try await CLI.run("repro", recording, "--out", lock.path("out"))
    #expect(repro.exitCode == 1)
    #expect(repro.stderr.contains("the recording replays without failing (3 of 3 replays"))
    #expect(!FileManager.default.fileExists(atPath: lock.path("out")))
  }

  /// A file that is not a recording is named, with why.
  @Test func aFileThatIsNotARecordingIsNamed() async throws {
    let file = FileManager.default.temporaryDirectory
      .appendingPathComponent("repro-\(UUID().uuidString).jsonl").path
    try "not a recording\n".write(toFile: file, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(atPath: file) }
    let repro = try await CLI.run("repro", file)
    #expect(repro.exitCode == 1)
    #expect(repro.stderr.contains("\(file):1: not a patchbay recording"))
  }
}
