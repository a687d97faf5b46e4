import Foundation
import PatchbayHost
import PatchbayLoader
import PatchbayScript

/// `patchbay run` on a terminal: the current screen full-size, a breadcrumb of the navigation
/// stack, key hints for the screen's actions, a `:` command line taking script commands, and a
/// status line. It redraws when the app changes or a key is pressed, nothing else.
///
/// Keys: ↑/↓ and ⏎ send `up`/`down`/`open` when the screen has them; 1–9 send the screen's
/// actions without fields, in the order it declares them; b or ⌫ goes back (dismiss or pop);
/// : opens the command line (`send counter setStep(by: 5)`, `push echo`, `state`, …);
/// q or Ctrl-C quits.
final class InteractiveSession {
  let app: AppRuntime
  let title: String
  private let terminal: RawTerminal
  private let changes = Counter()
  private var status = "Ready. : for commands, q to quit."
  private var output: [String] = []
  private var commandLine: String?
  private var lineNumber = 0

  init(app: AppRuntime, title: String) throws {
    self.app = app
    self.title = title
    self.terminal = try RawTerminal()
  }

  /// Shows a line in the status bar, from any thread (the plugin watcher's reports).
  var noteSink: @Sendable (String) -> Void {
    let changes = self.changes
    return { text in
      changes.note(text)
      changes.increment()
    }
  }

  /// Runs until the user quits; the terminal is restored whatever happens.
  func run() async {
    defer { self.terminal.restore() }
    let changes = self.changes
    // On a terminal, plugins' log lines go to the status line.
    self.app.onLog { feature, level, message in
      changes.note("\(feature): \(level.rawValue): \(message)")
      changes.increment()
    }
    self.app.onChange { change in
      changes.increment()
      if case .failure(let error) = change { changes.note(error.description) }
      if case .swap(let report) = change { changes.note("⇄ \(report)") }
    }
    var drawn = -1
    var lastStatusNote: String?
    while true {
      if let note = changes.lastNote, note != lastStatusNote {
        lastStatusNote = note
        self.status = note
      }
      let seen = changes.value
      if seen != drawn {
        drawn = seen
        self.draw()
      }
      let keys = self.terminal.readKeys(timeout: 50)
      guard !keys.isEmpty else { continue }
      for key in keys where await self.handle(key) == false { return }
      self.draw()
    }
  }

  /// Handles a key; false to quit.
  private func handle(_ key: Key) async -> Bool {
    if var line = self.commandLine {
      switch key {
      case .enter:
        self.commandLine = nil
        await self.execute(line)
      case .escape, .interrupt:
        self.commandLine = nil
      case .backspace:
        if line.isEmpty {
          self.commandLine = nil
        } else {
          line.removeLast(); self.commandLine = line
        }
      case .character(let character):
        line.append(character)
        self.commandLine = line
      default:
        break
      }
      return true
    }
    switch key {
    case .character("q"), .interrupt, .end:
      return false
    case .character(":"):
      self.commandLine = ""
    case .character("b"), .backspace, .left:
      let action: NavigationAction = self.app.navigation.presented != nil ? .dismiss : .pop
      self.attempt { try self.app.navigate(action) }
    case .up: self.sendNamed("up")
    case .down: self.sendNamed("down")
    case .enter, .right: self.sendNamed("open")
    case .character(let digit) where digit.isNumber:
      let index = Int(String(digit)).map { $0 - 1 } ?? -1
      let actions = self.hotActions
      if actions.indices.contains(index) { self.send(actions[index]) }
    default:
      break
    }
    return true
  }

  /// The current screen's actions without fields: what number keys send.
  private var hotActions: [String] {
    guard let handle = try? self.app.instance(self.app.currentPath) else { return [] }
    return handle.feature.actions.filter(\.fields.isEmpty).map(\.name).prefix(9).map { $0 }
  }

  private func sendNamed(_ name: String) {
    if self.hotActions.contains(name) { self.send(name) }
  }

  private func send(_ action: String) {
    let path = self.app.currentPath
    self.attempt {
      try CrashNote.sending(action) { () throws(AppError) in try self.app.send(path, action) }
      self.status = "\(path) ← \(action)"
    }
  }

  private func attempt(_ body: () throws -> Void) {
    do {
      try body()
    } catch {
      self.status = "✗ \(error)"
    }
  }

  private func execute(_ line: String) async {
    self.lineNumber += 1
    let collected = Collected()
    let runner = ScriptRunner(app: self.app, name: "command") { collected.append($0) }
    switch await runner.run(line: line, number: self.lineNumber) {
    case nil:
      self.status = "✓ \(line)"
    case .finished?:
      self.status = "✓ \(line)"
    case .failed(let message)?, .invalid(let message)?:
      self.status = "✗ \(message)"
    }
    self.output = collected.lines.flatMap { $0.split(separator: "\n").map(String.init) }
  }

  private func draw() {
    let (rows, columns) = self.terminal.size
    let rule = String(repeating: "─", count: max(0, columns))
    let navigation = self.app.navigation
    let crumbs =
      ([self.app.config.root] + navigation.stack.map(\.description)
      + (navigation.presented.map { ["[\($0)]"] } ?? [])).joined(separator: " › ")
    var lines = ["\(self.title) — \(crumbs)", rule]
    let view = (try? self.app.renderCurrent()) ?? "(cannot render \(self.app.currentPath))"
    lines += view.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    if !self.output.isEmpty {
      lines.append("")
      lines += self.output
    }
    let hints = self.hotActions.enumerated().map { "\($0.offset + 1) \($0.element)" }
    let footer = [
      rule,
      "keys: " + (hints + ["b back", ": command", "q quit"]).joined(separator: "  "),
      self.commandLine.map { ":" + $0 } ?? self.status,
    ]
    let bodyRows = max(0, rows - footer.count)
    var screen = Array(lines.prefix(bodyRows))
    screen += Array(repeating: "", count: max(0, bodyRows - screen.count))
    screen += footer
    // Views, output, status and crumbs come from plugins: made safe before any escape of ours.
    let text = screen.map { String($0.terminalSafe.prefix(columns)) }.joined(
      separator: "\u{1B}[K\r\n")
    RawTerminal.write("\u{1B}[H" + text + "\u{1B}[K\u{1B}[J")
  }
}

/// A change counter shared with the app's change handler.
private final class Counter: @unchecked Sendable {
  private let lock = NSLock()
  private var count = 0
  private var note: String?
  var value: Int { self.lock.withLock { self.count } }
  var lastNote: String? { self.lock.withLock { self.note } }
  func increment() { self.lock.withLock { self.count += 1 } }
  func note(_ text: String) { self.lock.withLock { self.note = text } }
}

private final class Collected: @unchecked Sendable {
  private let lock = NSLock()
  private var stored: [String] = []
  var lines: [String] { self.lock.withLock { self.stored } }
  func append(_ line: String) { self.lock.withLock { self.stored.append(line) } }
}
