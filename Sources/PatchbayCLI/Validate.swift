import ArgumentParser
import Foundation
import PatchbayEncoding
import PatchbayLoader
import PatchbayRepro
import PatchbayValidation

/// `patchbay validate PLUGIN... [--strictness 1-10] [--seed N] [--json] [--only TEST]`: the
/// checks a plugin author runs before shipping, each test in a child process of its own.
struct Validate: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Check built plugins as the host will use them: load, lifecycle, schema, state, "
      + "fuzzed actions, determinism, render, processor.",
    discussion: """
      Prints one line per test: PASS, FAIL or SKIP, what was checked, and for a failure the \
      seed and the shortest action sequence that shows it. Exits 0 when nothing failed, 1 \
      otherwise. Each test runs in a child process, --jobs at a time: a crash fails that \
      test, naming the call, and so does a call that has not returned in --call-seconds (the \
      child's watchdog, as the app's); the rest still run. The children, and the processes \
      they start, end with the validator, whatever ends it.

      Examples:
        patchbay validate Counter
        patchbay validate .build/debug/libEcho.so --strictness 10 --seed 7
        patchbay validate Counter --only fuzz.actions --seed 7
        patchbay validate --list
      """
  )

  @Argument(help: "Plugins: names (Counter) or paths (.build/debug/libCounter.so).")
  var plugins: [String] = []

  @Option(help: "1 (fast) to 10 (every test, most iterations).")
  var strictness = 5

  @Option(help: "The seed for generated actions and bytes (default: from the clock, printed).")
  var seed: UInt64?

  @Option(help: ArgumentHelp("Run only this test, whatever its level.", valueName: "test"))
  var only: String?

  @Flag(help: "Print JSON instead of text.")
  var json = false

  @Flag(help: "List the tests, their levels and what each checks.")
  var list = false

  @Option(
    help: ArgumentHelp(
      "Seconds of CPU time a test may use before it counts as too slow (a .wasm plugin's: 10×, "
        + "its code being interpreted; the clock allows 10× that, "
        + "at least 300 s).", valueName: "seconds"))
  var timeout = 30

  @Option(
    help: ArgumentHelp(
      "Seconds one call into the plugin may take before it counts as a hang, as the app's "
        + "[limits] call-seconds.", valueName: "seconds"))
  var callSeconds = 5

  @Option(
    help: ArgumentHelp(
      "Tests run at once, each in its child (default: one a core).", valueName: "n"))
  var jobs = ProcessInfo.processInfo.activeProcessorCount

  @Option(
    help: ArgumentHelp(
      "A plugin whose functions the validated plugins import (repeatable).",
      valueName: "plugin"))
  var provider: [String] = []

  @Flag(
    help: ArgumentHelp(
      "Load the plugin isolated, in a process of its own, for every test (the isolation test "
        + "compares the two at strictness 6 and up)."))
  var isolated = false

  @Option(
    help: ArgumentHelp(
      "Write each failure's actions as a test here, as patchbay repro does (a folder per test).",
      valueName: "dir"))
  var out: String?

  @Option(name: .customLong("child"), help: .hidden) var childTest: String?
  @Option(name: .customLong("keep"), help: .hidden) var keep: String?

  @OptionGroup var search: PluginSearchOptions

  func validate() throws {
    guard (1...10).contains(self.strictness) else {
      throw ValidationError("--strictness \(self.strictness): give 1 (fast) to 10 (everything).")
    }
    if let only = self.only, ValidationSuite.test(named: only) == nil {
      throw ValidationError(
        "--only \(only): no such test; the tests are "
          + ValidationSuite.all.map(\.name).joined(separator: ", ") + ".")
    }
    guard self.timeout >= 1, self.callSeconds >= 1 else {
      throw ValidationError(
        "--timeout \(self.timeout), --call-seconds \(self.callSeconds): give each 1 second or more."
      )
    }
    guard self.jobs >= 1 else {
      throw ValidationError("--jobs \(self.jobs): give 1 or more (1 runs the tests one at a time).")
    }
    guard self.list || !self.plugins.isEmpty else {
      throw ValidationError("name a plugin to validate (patchbay validate Counter), or --list.")
    }
  }

  func run() throws {
    if self.list {
      for test in ValidationSuite.all {
        Terminal.out(
          "\(test.name.padding(toLength: 31, withPad: " ", startingAt: 0)) level \(test.level)  \(test.summary)"
        )
      }
      return
    }
    if let name = self.childTest { return try self.runChild(name) }
    let seed = self.seed ?? UInt64(Date().timeIntervalSince1970 * 1_000) % 1_000_000
    let providers = try self.provider.map { try self.search.loader.locate($0).path }
    let runner = ChildRunner(
      executable: executableDirectory() + "/patchbay",
      probe: executableDirectory() + "/patchbay-probe", timeout: .seconds(self.timeout),
      callSeconds: self.callSeconds, providers: providers)
    var validator = Validator(runner: runner)
    validator.jobs = self.jobs
    var failed = false
    var reports: [WireValue] = []
    for name in self.plugins {
      // `lv2:URI` names no file: the children load it as it is written.
      let path =
        PluginLoader.scheme(of: name) != nil ? name : try self.search.loader.locate(name).path
      if !self.json {
        Terminal.out("\(name) (\(path)): strictness \(self.strictness), seed \(seed)")
      }
      let lines = validator.validate(
        path, strictness: self.strictness, seed: seed, only: self.only, isolated: self.isolated
      ) { line in
        if !self.json { Terminal.out(Self.text(line)) }
      }
      if let out = self.out { self.writeTests(lines, plugin: path, name: name, seed, into: out) }
      let counts = Dictionary(grouping: lines, by: \.result.status).mapValues(\.count)
      failed = failed || counts[.fail, default: 0] > 0
      if self.json {
        reports.append(Self.json(name: name, path: path, seed: seed, lines: lines, self.strictness))
      } else {
        Terminal.out(
          "\(name): \(counts[.pass, default: 0]) passed, \(counts[.fail, default: 0]) failed, "
            + "\(counts[.skip, default: 0]) skipped")
      }
    }
    if self.json { Terminal.out(WireValue.list(reports).json(pretty: true)) }
    if failed { throw ExitCode(1) }
  }

  /// Each failure's actions, run in an app of the feature alone, confirmed, shrunk further
  /// and written as a script and a test by ``ReproSession`` into `out/<test>`.
  private func writeTests(
    _ lines: [Validator.Line], plugin: String, name: String, _ seed: UInt64, into out: String
  ) {
    let say: (String) -> Void = { self.json ? Terminal.error($0) : Terminal.out("      \($0)") }
    for line in lines where line.result.status == .fail {
      guard let reproduction = line.result.reproduction, let feature = reproduction.feature,
        !reproduction.actions.isEmpty
      else { continue }
      let session = ReproSession(
        executable: executableDirectory() + "/patchbay",
        arguments: self.search.pluginPaths.flatMap { ["--plugin-path", $0] }, jobs: self.jobs,
        confirmations: 3, callSeconds: self.callSeconds)
      let source = "patchbay validate \(name) --only \(line.test.name) --seed \(seed)"
      do {
        let recording = try OneFeatureRun.write(
          plugin: plugin, feature: feature, actions: reproduction.actions,
          into: "\(out)/\(line.test.name)")
        let done = try session.run(recording, from: source, into: "\(out)/\(line.test.name)") {
          _ in
        }
        ReproSession.summary(done, of: recording.steps.count).forEach(say)
      } catch Repro.Refusal.noFailure {
        say(
          "\(line.test.name): not written as a test: an app of \(feature) alone takes these "
            + "actions without a crash, hang, refusal or NaN; what this test checks, only it does")
      } catch {
        say("\(line.test.name): not written as a test: \(error)")
      }
    }
  }

  /// The child: one test, its result as JSON on stdout, breadcrumbs on stderr.
  private func runChild(_ name: String) throws {
    guard let path = self.plugins.first else {
      throw ValidationError("--child \(name): no plugin")
    }
    let keep = self.keep.map { $0.split(separator: ",").compactMap { Int($0) } }
    try ValidationChild.run(
      name, plugin: path, seed: self.seed ?? 0, strictness: self.strictness, keep: keep,
      providers: self.provider, isolated: self.isolated, callSeconds: self.callSeconds)
  }

  /// `PASS  load.descriptor           … (0.1 s)`
  static func text(_ line: Validator.Line) -> String {
    var text =
      "\(line.result.status.rawValue)  \(line.test.name.padding(toLength: 31, withPad: " ", startingAt: 0))"
      + "\(line.result.detail) (\(seconds(line.duration)))"
    if let reproduction = line.result.reproduction {
      text += "\n      reproduce: \(reproduction.description)"
    }
    return text
  }

  static func json(
    name: String, path: String, seed: UInt64, lines: [Validator.Line], _ strictness: Int
  ) -> WireValue {
    .record(
      fields: ("plugin", .string(name)), ("path", .string(path)),
      ("strictness", .int(Int64(strictness))), ("seed", .int(Int64(seed))),
      (
        "tests",
        .list(
          lines.map { line in
            var fields: [WireValue.Field] = [
              .init("name", .string(line.test.name)), .init("level", .int(Int64(line.test.level))),
              .init("status", .string(line.result.status.rawValue)),
              .init("detail", .string(line.result.detail)),
              .init("seconds", .double(secondsValue(line.duration))),
            ]
            if let reproduction = line.result.reproduction {
              fields.append(
                .init(
                  "reproduction",
                  .record(
                    fields: ("seed", .int(Int64(reproduction.seed))),
                    ("actions", .list(reproduction.actions.map(WireValue.string))))))
            }
            return .record(fields)
          })
      ))
  }
}

/// `1.23 s`
private func seconds(_ duration: Duration) -> String {
  String(format: "%.2f s", secondsValue(duration))
}

private func secondsValue(_ duration: Duration) -> Double {
  let (whole, atto) = duration.components
  return Double(whole) + Double(atto) / 1e18
}
