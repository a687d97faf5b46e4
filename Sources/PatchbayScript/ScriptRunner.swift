import Foundation
import Patchbay
import PatchbayEncoding
import PatchbayFunctions
import PatchbayHost
import PatchbayLoader
import Synchronization

/// Runs `patchbay run` scripts against a running app: one command a line, in the language
/// ``ScriptLanguage`` defines.
///
/// ```swift
/// let runner = ScriptRunner(app: app, name: "demo.script") { print($0) }
/// await runner.run("send counter increment\nexpect counter /count 1\n")  // .finished
/// ```
public struct ScriptRunner {
  /// How a script ended.
  public enum Outcome: Equatable, Sendable {
    /// Every line ran (or `quit`).
    case finished
    /// A command failed (a refused action, a failed `expect`): exit code 1.
    case failed(String)
    /// A line is not a valid command: exit code 2.
    case invalid(String)

    public var exitCode: Int32 {
      switch self {
      case .finished: 0
      case .failed: 1
      case .invalid: 2
      }
    }
  }

  public let app: AppRuntime
  /// Where `state`, `render` and failed expectations are written.
  public let output: @Sendable (String) -> Void
  /// How scripts name themselves in errors (`demo.script`, `<stdin>`).
  public let name: String
  /// The swaps `wait swap` has seen, made and refused: those before the script started, and
  /// one per `wait swap`.
  private let swapsSeen: SwapsSeen

  /// Counts shared by the runner's copies (a struct), read and bumped by one `wait swap` at a
  /// time.
  private final class SwapsSeen: Sendable {
    let made: Atomic<Int>
    let refused: Atomic<Int>
    init(made: Int, refused: Int) {
      self.made = Atomic(made)
      self.refused = Atomic(refused)
    }
  }

  /// What `wait MS` does: sleeps, or (`patchbay render`) renders MS of sound on the sample
  /// clock, so a script's commands land at exact frames.
  public let wait: @Sendable (Int) async -> Void

  public init(
    app: AppRuntime, name: String,
    wait: @escaping @Sendable (Int) async -> Void = {
      try? await Task.sleep(for: .milliseconds($0))
    },
    output: @escaping @Sendable (String) -> Void
  ) {
    self.app = app
    self.name = name
    self.wait = wait
    self.output = output
    self.swapsSeen = SwapsSeen(made: app.swapCount, refused: app.swapRefusals.count)
  }

  /// Waits until the app has made or refused a swap this script has not seen yet: nil when
  /// it made one, why it refused it, or a line saying none came within `milliseconds`.
  func waitForSwap(milliseconds: Int) async -> String? {
    let deadline = ContinuousClock.now + .milliseconds(milliseconds)
    while true {
      if self.app.swapCount > self.swapsSeen.made.load(ordering: .relaxed) {
        self.swapsSeen.made.add(1, ordering: .relaxed)
        return nil
      }
      let refusals = self.app.swapRefusals
      let refused = self.swapsSeen.refused.load(ordering: .relaxed)
      if refusals.count > refused {
        self.swapsSeen.refused.add(1, ordering: .relaxed)
        return "wait swap: the swap was refused: \(refusals[refused])"
      }
      guard ContinuousClock.now < deadline else {
        return "wait swap: no swap within \(milliseconds) ms"
      }
      try? await Task.sleep(for: .milliseconds(5))
    }
  }

  /// Runs every line of `script`.
  public func run(_ script: String) async -> Outcome {
    for (index, line) in script.split(separator: "\n", omittingEmptySubsequences: false)
      .enumerated()
    {
      let outcome = await self.run(line: String(line), number: index + 1)
      if outcome != nil { return outcome! }
    }
    return .finished
  }

  /// Runs one line; nil to go on, an outcome to stop.
  public func run(line: String, number: Int) async -> Outcome? {
    let trimmed = line.trimmingCharacters(in: .whitespaces)
    guard !trimmed.isEmpty, !trimmed.hasPrefix("#") else { return nil }
    let parts = trimmed.split(separator: " ", maxSplits: 1).map(String.init)
    let command = parts[0]
    let rest = parts.count > 1 ? parts[1].trimmingCharacters(in: .whitespaces) : ""
    let location = "\(self.name):\(number)"
    func invalid(_ reason: String) -> Outcome { .invalid("\(location): \(reason)") }
    func failed(_ reason: String) -> Outcome { .failed("\(location): \(reason)") }

    do {
      switch command {
      case "send":
        let arguments = rest.split(separator: " ", maxSplits: 1).map(String.init)
        guard arguments.count == 2 else {
          return invalid(ScriptLanguage.usage("send"))
        }
        // Named in a crash report, should the plugin crash on it.
        try CrashNote.sending(arguments[1]) { () throws(AppError) in
          try self.app.send(arguments[0], arguments[1])
        }
      case "push", "present":
        let arguments = rest.split(separator: " ", maxSplits: 1).map(String.init)
        guard let node = arguments.first else {
          return invalid(ScriptLanguage.usage(command))
        }
        let state = arguments.count == 2 ? WireValue(stateText: arguments[1]) : nil
        if arguments.count == 2, state == nil {
          return invalid(
            "'\(arguments[1])' is not a state value; write a record: {score: 3, outOf: 3}")
        }
        try self.app.navigate(
          command == "push" ? .push(node: node) : .present(node: node), state: state?.bytes)
      case "add":
        let arguments = rest.split(separator: " ", maxSplits: 2).map(String.init)
        guard arguments.count >= 2 else {
          return invalid(ScriptLanguage.usage("add"))
        }
        let state = arguments.count == 3 ? WireValue(stateText: arguments[2]) : nil
        if arguments.count == 3, state == nil {
          return invalid(
            "'\(arguments[2])' is not a state value; write a record: {count: 2, step: 1}")
        }
        try self.app.add(to: arguments[0], id: arguments[1], state: state?.bytes)
      case "call":
        let words = splitValues(rest)
        guard let name = words.first else {
          return invalid(ScriptLanguage.usage("call"))
        }
        var values: [WireValue] = []
        for (index, text) in words.dropFirst().enumerated() {
          guard let value = WireValue(stateText: text) else {
            return invalid(
              "call \(name): argument \(index + 1) '\(text)' is not a value (69, 440.0, \"C4\", [60, 64])"
            )
          }
          values.append(value)
        }
        // `Theory.note_frequency`: the plugin named before the last dot.
        let result =
          if let dot = name.lastIndex(of: ".") {
            try self.app.call(
              String(name[..<dot]), String(name[name.index(after: dot)...]), values)
          } else {
            try self.app.call(name, values)
          }
        self.output(result.callText)
      case "swap":
        let arguments = rest.split(separator: " ").map(String.init)
        guard arguments.count == 2 else {
          return invalid(ScriptLanguage.usage("swap"))
        }
        try self.app.swap(arguments[0], to: arguments[1])
      case "remove":
        let arguments = rest.split(separator: " ").map(String.init)
        guard arguments.count == 2 else {
          return invalid(ScriptLanguage.usage("remove"))
        }
        try self.app.remove(from: arguments[0], id: arguments[1])
      case "pop", "dismiss", "settle", "quit":
        guard rest.isEmpty else { return invalid("'\(command)' takes no arguments") }
        switch command {
        case "pop": try self.app.navigate(.pop)
        case "dismiss": try self.app.navigate(.dismiss)
        case "settle":
          if !(await self.app.settle(timeout: .seconds(30))) {
            return failed("the app did not settle within 30 s: an effect is still running")
          }
        default: return .finished
        }
      case "route":
        guard rest.hasPrefix("/") else { return invalid(ScriptLanguage.usage("route")) }
        try self.app.follow(route: rest)
      case "state":
        self.output(try self.app.state(rest.isEmpty ? nil : rest).json(pretty: true))
      case "render":
        self.output(
          rest.isEmpty ? try self.app.renderCurrent() : try self.app.instance(rest).render())
      case "expect":
        let arguments = rest.split(separator: " ", maxSplits: 2).map(String.init)
        guard arguments.count == 3, arguments[1].hasPrefix("/") || arguments[1].isEmpty else {
          return invalid(ScriptLanguage.usage("expect"))
        }
        guard let expected = WireValue(json: arguments[2]) else {
          return invalid("'\(arguments[2])' is not a JSON value (strings need double quotes)")
        }
        let state = try self.app.state(arguments[0])
        guard let found = state[pointer: arguments[1]] else {
          return failed("expect \(arguments[0]) \(arguments[1]): no such field in \(state.json())")
        }
        if !found.matches(expected) {
          let message =
            "expect \(arguments[0]) \(arguments[1]): expected \(expected.json()), found \(found.json())"
          self.output("- \(expected.json())\n+ \(found.json())")
          return failed(message)
        }
      case "wait" where rest.split(separator: " ").first == "swap":
        let arguments = rest.split(separator: " ").map(String.init)
        guard arguments.count <= 2, let limit = Int(arguments.dropFirst().first ?? "120000"),
          limit >= 0
        else {
          return invalid(ScriptLanguage.usage("wait swap"))
        }
        if let failure = await self.waitForSwap(milliseconds: limit) {
          return failed(failure)
        }
      case "wait":
        guard let milliseconds = Int(rest), milliseconds >= 0 else {
          let swap = ScriptLanguage.command("wait swap")
          return invalid(
            ScriptLanguage.usage("wait") + ", or \(swap.usage) (\(swap.example))")
        }
        await self.wait(milliseconds)
      default:
        return invalid(
          "unknown command '\(command)'.\(suggestion(for: command, among: ScriptLanguage.words)) "
            + "Commands: \(ScriptLanguage.words.joined(separator: ", "))."
        )
      }
    } catch {
      return failed("\(error)")
    }
    return nil
  }
}
