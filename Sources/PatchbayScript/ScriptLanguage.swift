/// The script language of `patchbay run`, defined once: each command's form, what it does,
/// and an example. ``ScriptRunner`` reads it for its usage errors and its list of commands,
/// `patchbay run --help` prints ``helpText``, and docs/APPS.md's table is ``markdownTable`` (a
/// test keeps the two equal).
///
/// ```text
/// # comments and blank lines are skipped
/// send counter setStep(by: 5)
/// expect counter /step 5
/// swap counter CounterAlt
/// call note_frequency 69 440.0
/// wait swap 60000
/// ```
///
/// One command a line. The first line that fails stops the script (exit code 1); a line that
/// is not a command stops it with exit code 2. Either error names the line.
package enum ScriptLanguage {
  /// One command: `send PATH ACTION`, what it does, and a line that uses it.
  public struct Command: Sendable, Equatable {
    /// The word a line starts with (`wait swap` is two).
    public let name: String
    /// Its form: `send PATH ACTION`.
    public let usage: String
    /// What it does.
    public let summary: String
    /// A line that uses it: `send counter setStep(by: 5)`.
    public let example: String
  }

  public static let commands: [Command] = [
    Command(
      name: "send", usage: "send PATH ACTION",
      summary: "sends an action in text form to the instance at PATH",
      example: "send counter setStep(by: 5)"),
    Command(
      name: "push", usage: "push NODE [STATE]",
      summary: "pushes a `stack` feature, starting from STATE (a record) when given",
      example: "push results {score: 3, outOf: 3}"),
    Command(name: "pop", usage: "pop", summary: "pops the top screen", example: "pop"),
    Command(
      name: "present", usage: "present NODE [STATE]",
      summary: "presents a `presented` feature over the stack", example: "present settings"),
    Command(
      name: "dismiss", usage: "dismiss", summary: "dismisses the presented feature",
      example: "dismiss"),
    Command(
      name: "add", usage: "add COLLECTION ID [STATE]",
      summary: "adds an instance to a `collection`", example: "add home/tallies c {count: 2}"),
    Command(
      name: "remove", usage: "remove COLLECTION ID",
      summary: "removes an instance from a collection, cancelling its effects",
      example: "remove home/tallies a"),
    Command(
      name: "swap", usage: "swap FEATURE PLUGIN",
      summary: "runs another implementation of FEATURE (a node key or a feature id; or a "
        + "plugin that only exports functions) from PLUGIN (a name on the search paths, or a "
        + "path), every instance keeping its state",
      example: "swap counter CounterAlt"),
    Command(
      name: "call", usage: "call [PLUGIN.]FUNCTION ARGS…",
      summary: "calls a plugin's exported function with values and prints the result; "
        + "PLUGIN (its name or id) is needed only when two plugins export FUNCTION",
      example: "call note_frequency 69 440.0"),
    Command(
      name: "route", usage: "route /PATH", summary: "follows a deep link", example: "route /echo"),
    Command(
      name: "state", usage: "state [PATH]",
      summary: "prints the state of PATH, or of the whole app (navigation and every instance), "
        + "as JSON",
      example: "state counter"),
    Command(
      name: "render", usage: "render [PATH]",
      summary: "prints the view of PATH (default: the screen on top)", example: "render"),
    Command(
      name: "expect", usage: "expect PATH /POINTER VALUE",
      summary: "compares a JSON pointer into PATH's state with a JSON value; a mismatch "
        + "prints the difference and fails",
      example: "expect counter /count 5"),
    Command(
      name: "wait", usage: "wait MS",
      summary: "waits MS milliseconds (in `patchbay render`: renders MS of sound first)",
      example: "wait 100"),
    Command(
      name: "wait swap", usage: "wait swap [MS]",
      summary: "waits for the next swap this script has not seen (`--watch`'s, of a rebuilt "
        + "plugin), at most MS (default 120000); fails at once when the app refuses it or "
        + "`--rebuild` cannot build it, with why, and when none comes",
      example: "wait swap 60000"),
    Command(
      name: "settle", usage: "settle",
      summary: "waits until no action is queued and no effect runs (30 s at most)",
      example: "settle"),
    Command(name: "quit", usage: "quit", summary: "stops the script", example: "quit"),
  ]

  /// The first words lines may start with, in order: `send`, `push`, … (`wait` once).
  public static var words: [String] {
    var seen: Set<String> = []
    return Self.commands.compactMap { command in
      let word = String(command.name.split(separator: " ")[0])
      return seen.insert(word).inserted ? word : nil
    }
  }

  /// The command named `name` (`send`, `wait swap`).
  public static func command(_ name: String) -> Command {
    guard let command = Self.commands.first(where: { $0.name == name }) else {
      preconditionFailure("no script command '\(name)'")
    }
    return command
  }

  /// What a line that misuses `name` is told: `usage: send PATH ACTION (send counter
  /// setStep(by: 5))`.
  public static func usage(_ name: String) -> String {
    let command = Self.command(name)
    return "usage: \(command.usage) (\(command.example))"
  }

  /// The commands as `--help` lists them: form and summary, one or more lines each, under 80
  /// columns.
  public static var helpText: String {
    let width = Self.commands.map(\.usage.count).max()! + 2
    return Self.commands.map { command in
      let lines = Self.wrap(command.summary, width: 76 - width)
      let padding = String(repeating: " ", count: width - command.usage.count)
      return
        (["  \(command.usage)\(padding)\(lines[0])"]
        + lines.dropFirst().map { "  " + String(repeating: " ", count: width) + $0 })
        .joined(separator: "\n")
    }.joined(separator: "\n")
  }

  /// The commands as docs/APPS.md's table: form, what it does, an example.
  public static var markdownTable: String {
    (["| command | does | example |", "|---|---|---|"]
      + Self.commands.map { "| `\($0.usage)` | \($0.summary) | `\($0.example)` |" })
      .joined(separator: "\n")
  }

  /// `text` in lines of at most `width` characters, broken at spaces.
  static func wrap(_ text: String, width: Int) -> [String] {
    var lines: [String] = []
    var line = ""
    for word in text.split(separator: " ") {
      if !line.isEmpty, line.count + 1 + word.count > width {
        lines.append(line)
        line = ""
      }
      line += (line.isEmpty ? "" : " ") + word
    }
    return lines + [line]
  }
}
