import Foundation

/// Runs one test in a child process (`patchbay validate --child TEST …`, or `patchbay-probe
/// --child TEST …` for a test that counts calls), so a crash or hang of the plugin fails that
/// test and the run goes on. The child leaves a breadcrumb on stderr
/// before each call into the plugin (`step: action 17: reduce setStep(by: 5)`); the last one
/// names the call a crash or hang happened in. Its result is JSON on stdout.
public struct ChildRunner: Sendable {
  /// The `patchbay` executable to run the child as.
  public let executable: String
  /// `patchbay-probe`, for the tests that run in it (``ValidationTest/inProbe``).
  public let probe: String
  /// How long a test may run before it counts as hung.
  public let timeout: Duration
  /// The `--provider` plugins' paths, passed on to each child.
  public let providers: [String]

  public init(executable: String, probe: String, timeout: Duration, providers: [String] = []) {
    self.executable = executable
    self.probe = probe
    self.timeout = timeout
    self.providers = providers
  }

  /// What a child run ended with: the test's result, or the crash or hang it became.
  public struct Outcome: Sendable {
    public var result: ValidationResult
    /// The action texts the child's breadcrumbs named, by index.
    public var actions: [Int: String]
    /// The index of the action the child was sending when it stopped, if it was sending one.
    public var stoppedAt: Int?
  }

  public func run(
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
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    var arguments =
      (test.inProbe ? [] : ["validate"]) + [
        "--child", test.name, plugin, "--seed", "\(seed)", "--strictness", "\(strictness)",
      ]
    if let keep { arguments += ["--keep", keep.map(String.init).joined(separator: ",")] }
    for provider in self.providers { arguments += ["--provider", provider] }
    if isolated { arguments.append("--isolated") }
    process.arguments = arguments
    let output = Pipe()
    let errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    let ended = DispatchSemaphore(value: 0)
    process.terminationHandler = { _ in ended.signal() }
    let collected = Collected()
    let readers = DispatchGroup()
    for (pipe, isErrors) in [(output, false), (errors, true)] {
      readers.enter()
      Thread.detachNewThread {
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        collected.set(data, errors: isErrors)
        readers.leave()
      }
    }
    do {
      try process.run()
    } catch {
      return Outcome(
        result: .fail("could not start \(executable): \(error)"), actions: [:])
    }
    let (seconds, attoseconds) = self.timeout.components
    let deadline = DispatchTime.now() + Double(seconds) + Double(attoseconds) / 1e18
    let hung = ended.wait(timeout: deadline) == .timedOut
    if hung {
      kill(process.processIdentifier, SIGKILL)
      ended.wait()
    }
    readers.wait()
    let (stdout, stderr) = collected.both
    let steps = stderr.split(separator: "\n").filter { $0.hasPrefix("step: ") }
      .map { String($0.dropFirst("step: ".count)) }
    var actions: [Int: String] = [:]
    var stoppedAt: Int?
    for step in steps {
      if let (index, text) = Self.action(step) {
        actions[index] = text
        stoppedAt = index
      } else {
        stoppedAt = nil
      }
    }
    let last = steps.last ?? "start"
    if hung {
      return Outcome(
        result: .fail("hung: no answer in \(self.timeout) in \(last)"), actions: actions,
        stoppedAt: stoppedAt)
    }
    if process.terminationReason == .uncaughtSignal || process.terminationStatus != 0 {
      let said = stderr.split(separator: "\n").filter { !$0.hasPrefix("step: ") }.suffix(2)
        .joined(separator: " | ")
      let how =
        process.terminationReason == .uncaughtSignal
        ? "crashed (\(signalName(process.terminationStatus)))"
        : process.terminationStatus == 3
          ? "crashed"  // patchbay's exit code for a plugin that crashed it; the line follows
          : "exited with status \(process.terminationStatus)"
      return Outcome(
        result: .fail("\(how) in \(last)" + (said.isEmpty ? "" : ": \(said)")),
        actions: actions, stoppedAt: stoppedAt)
    }
    guard let result = try? JSONDecoder().decode(ValidationResult.self, from: Data(stdout.utf8))
    else {
      return Outcome(
        result: .fail("the child printed no result (\(stdout.prefix(200)))"), actions: actions)
    }
    return Outcome(result: result, actions: actions, stoppedAt: nil)
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

/// The two pipes' contents, written by their reader threads.
private final class Collected: @unchecked Sendable {
  private let lock = NSLock()
  private var output = ""
  private var errors = ""

  func set(_ data: Data, errors: Bool) {
    self.lock.withLock {
      if errors {
        self.errors = String(decoding: data, as: UTF8.self)
      } else {
        self.output = String(decoding: data, as: UTF8.self)
      }
    }
  }

  var both: (String, String) { self.lock.withLock { (self.output, self.errors) } }
}

/// SIGSEGV for 11.
func signalName(_ signal: Int32) -> String {
  let names: [Int32: String] = [
    SIGSEGV: "SIGSEGV", SIGBUS: "SIGBUS", SIGABRT: "SIGABRT", SIGILL: "SIGILL", SIGFPE: "SIGFPE",
    SIGTRAP: "SIGTRAP", SIGKILL: "SIGKILL",
  ]
  return names[signal] ?? "signal \(signal)"
}
