import Foundation

/// Runs one test in a child process (`patchbay validate --child TEST …`, or `patchbay-probe
/// --child TEST …` for a test that counts calls), so a crash or hang of the plugin fails that
/// test and the run goes on. The child leaves a breadcrumb on stderr before each call into
/// the plugin (`step: action 17: reduce setStep(by: 5)`); the last one names the call a crash
/// or hang happened in. Its watchdog ends it when a call has not returned in ``callSeconds``,
/// as the app's does. Its result is JSON on stdout.
///
/// The child is killed by the kernel when the thread that called ``run(_:plugin:seed:strictness:keep:isolated:)``
/// ends (`PR_SET_PDEATHSIG`): call it from a thread that outlives the run, such as the main
/// thread.
package struct ChildRunner: Sendable {
  /// The `patchbay` executable to run the child as.
  package let executable: String
  /// `patchbay-probe`, for the tests that run in it (``ValidationTest/inProbe``).
  package let probe: String
  /// The CPU time a test may use before it counts as too slow (`--timeout`). The clock gives
  /// it ten times as long, at least five minutes, to wait for what it waits on (and to be
  /// given the CPU on a busy machine).
  package let timeout: Duration
  /// How long one call into the plugin may take before the child's watchdog names it as a
  /// hang (`--call-seconds`), as the app's does (`[limits] call-seconds`).
  package let callSeconds: Int
  /// The `--provider` plugins' paths, passed on to each child.
  package let providers: [String]

  package init(
    executable: String, probe: String, timeout: Duration, callSeconds: Int = 5,
    providers: [String] = []
  ) {
    self.executable = executable
    self.probe = probe
    self.timeout = timeout
    self.callSeconds = callSeconds
    self.providers = providers
  }

  /// What a child run ended with: the test's result, or the crash or hang it became.
  package struct Outcome: Sendable {
    package var result: ValidationResult
    /// The action texts the child's breadcrumbs named, by index.
    package var actions: [Int: String]
    /// The index of the action the child was sending when it stopped, if it was sending one.
    package var stoppedAt: Int?
    /// The feature whose instance the child made last (`create ID`): the one the actions went to.
    package var feature: String? = nil
    /// Whether it was ended for the CPU time the whole run used (`--timeout`).
    package var outranCPU = false
  }

  /// The line the watchdog (`pb_watch_start`) ends a child with.
  static let watchdogLine = "a plugin call did not return within "

  package func run(
    _ test: ValidationTest, plugin: String, seed: UInt64, strictness: Int, keep: [Int]? = nil,
    isolated: Bool = false
  ) -> Outcome {
    let executable = test.inProbe ? self.probe : self.executable
    guard FileManager.default.isExecutableFile(atPath: executable) else {
      return Outcome(
        result: .fail(
          "cannot find \(executable), the child this test runs in: build it with "
            + "`swift build --product \(URL(fileURLWithPath: executable).lastPathComponent)`"),
        actions: [:])
    }
    var arguments =
      (test.inProbe ? [] : ["validate"]) + [
        "--child", test.name, plugin, "--seed", "\(seed)", "--strictness", "\(strictness)",
        "--call-seconds", "\(self.callSeconds)",
      ]
    if let keep { arguments += ["--keep", keep.map(String.init).joined(separator: ",")] }
    for provider in self.providers { arguments += ["--provider", provider] }
    if isolated { arguments.append("--isolated") }
    let cpuSeconds = Self.cpuSeconds(self.timeout, plugin: plugin)
    let wallSeconds = max(10 * cpuSeconds, 300)
    let run = ChildRun.run(
      executable, arguments, cpuSeconds: cpuSeconds, wallSeconds: wallSeconds)
    let steps = run.stderr.split(separator: "\n").filter { $0.hasPrefix("step: ") }
      .map { String($0.dropFirst("step: ".count)) }
    var actions: [Int: String] = [:]
    var stoppedAt: Int?
    var feature: String?
    for step in steps {
      if step.hasPrefix("create ") {
        feature = step.dropFirst("create ".count).split(separator: " ").first.map(String.init)
      }
      if let (index, text) = Self.action(step) {
        actions[index] = text
        stoppedAt = index
      } else {
        stoppedAt = nil
      }
    }
    let last = steps.last ?? "start"
    let said = run.stderr.split(separator: "\n").filter { !$0.hasPrefix("step: ") }
    func failed(_ detail: String) -> Outcome {
      Outcome(result: .fail(detail), actions: actions, stoppedAt: stoppedAt, feature: feature)
    }
    switch run.ending {
    case .notStarted(let error):
      return failed("could not start \(executable): \(String(cString: strerror(error)))")
    case .outranCPU:
      let budget =
        cpuSeconds == Self.seconds(self.timeout)
        ? "\(self.timeout)" : "\(Int(cpuSeconds)) seconds (10 × --timeout: interpreted code)"
      var outcome = failed(
        "too slow: used \(budget) of CPU time without finishing (--timeout) in \(last)")
      outcome.outranCPU = true
      return outcome
    case .outranWallClock:
      return failed(
        "hung: no answer in \(Int(wallSeconds)) s of wall-clock time, short of its CPU time, in \(last)"
      )
    case .exited(3) where said.contains(where: { $0.contains(Self.watchdogLine) }):
      return failed(
        "hung: a call did not return within \(self.callSeconds) s (--call-seconds) in \(last)")
    case .signaled(let signal):
      return failed("crashed (\(signalName(signal))) in \(last)" + Self.lastWords(said))
    case .exited(let status) where status != 0:
      // 3: patchbay's exit code for a plugin that crashed it; the line follows.
      let how = status == 3 ? "crashed" : "exited with status \(status)"
      return failed("\(how) in \(last)" + Self.lastWords(said))
    case .exited:
      guard
        let result = try? JSONDecoder().decode(ValidationResult.self, from: Data(run.stdout.utf8))
      else {
        return Outcome(
          result: .fail("the child printed no result (\(run.stdout.prefix(200)))"),
          actions: actions)
      }
      return Outcome(result: result, actions: actions, stoppedAt: nil, feature: feature)
    }
  }

  /// `: ` and the child's last two lines that were not breadcrumbs, if it wrote any.
  private static func lastWords(_ lines: [Substring]) -> String {
    lines.isEmpty ? "" : ": " + lines.suffix(2).joined(separator: " | ")
  }

  /// Every call of a WebAssembly plugin's code is interpreted (WasmKit), 10 to 100 times the
  /// native cost, so a test of one may use ten times `timeout` of CPU time: `fuzz.actions`'s
  /// 10,000 actions are 0.7 s of a native Counter's CPU time, and 13 s of its WebAssembly
  /// build's in a debug `patchbay` (more on a slower machine).
  static func cpuSeconds(_ timeout: Duration, plugin: String) -> Double {
    Self.seconds(timeout) * (plugin.hasSuffix(".wasm") ? 10 : 1)
  }

  static func seconds(_ duration: Duration) -> Double {
    let (seconds, attoseconds) = duration.components
    return Double(seconds) + Double(attoseconds) / 1e18
  }

  /// `(17, "reduce setStep(by: 5)")` from `action 17: reduce setStep(by: 5)`.
  static func action(_ step: String) -> (Int, String)? {
    guard step.hasPrefix("action "), let colon = step.firstIndex(of: ":"),
      let index = Int(step[step.index(step.startIndex, offsetBy: 7)..<colon])
    else { return nil }
    var text = step[step.index(after: colon)...].drop(while: { $0 == " " })
    if text.hasPrefix("reduce ") { text = text.dropFirst("reduce ".count) }
    return (index, String(text))
  }
}

/// SIGSEGV for 11.
package func signalName(_ signal: Int32) -> String {
  let names: [Int32: String] = [
    SIGSEGV: "SIGSEGV", SIGBUS: "SIGBUS", SIGABRT: "SIGABRT", SIGILL: "SIGILL", SIGFPE: "SIGFPE",
    SIGTRAP: "SIGTRAP", SIGKILL: "SIGKILL",
  ]
  return names[signal] ?? "signal \(signal)"
}
