import Foundation
import PatchbayAudioGraph
import PatchbayConfig
import PatchbayHost
import PatchbayLoader
import PatchbayScript

/// `patchbay run` on a terminal: the current screen full-size under a breadcrumb of the
/// navigation stack and the views pinned above every screen (`[terminal] pinned`), a level
/// meter when the app plays sound, the screen's keys in a footer, a `:` command line taking
/// script commands, and a status line. It redraws when the app changes, the terminal is
/// resized, a key is pressed or the meter moves — at most 60 times a second — and never holds
/// the app queue between redraws.
///
/// Keys (``KeyMap``): the screen's own (`keys` of its `[[feature]]`) and the app's (`[keys]`);
/// ↑/↓ and ⏎ send `up`/`down`/`open` when the screen has them; 1–9 send the screen's actions
/// without fields; b or ⌫ goes back (dismiss or pop); : opens the command line (`send counter
/// setStep(by: 5)`, `push echo`, `state`, …); m shows every message whole (``MessageLog``);
/// ? shows every key; q or Ctrl-C quits.
final class TerminalUI {
  let app: AppRuntime
  let title: String
  /// The mix's level, when the app plays sound (a meter under the view).
  let meter: LevelMeter?
  let terminal: RawTerminal
  private let changes = Counter()
  /// Shows every change as a message, as `--print-changes` prints it.
  let printsChanges: Bool
  /// Everything said, whole; the status line shows the newest.
  var log = MessageLog()
  var output: [String] = []
  var commandLine: String?
  /// The help overlay is up: ↑ ↓ scroll it, any other key closes it.
  var showsHelp = false
  /// The message log is up: ↑ ↓ scroll it, any other key closes it.
  var showsMessages = false
  /// How far the overlay is scrolled: the help down from its top, the log up from its newest.
  var overlayScroll = 0
  private var lineNumber = 0
  /// What the meter showed last: it redraws only when its text changes.
  var meterText = ""
  /// The levels shown, each falling about 16 dB a second unless a louder one comes (a
  /// click of 25 ms stays visible).
  var heldLevels: [(peak: Float, rms: Float)] = []

  /// Redrawn at most this often (60 a second), and only when something changed.
  static let frame = Duration.milliseconds(16)

  init(app: AppRuntime, title: String, meter: LevelMeter? = nil, printsChanges: Bool = false)
    throws
  {
    self.app = app
    self.title = title
    self.meter = meter
    self.printsChanges = printsChanges
    self.terminal = try RawTerminal()
  }

  /// What the status line shows: the command being typed, else the newest message.
  func statusLine(width: Int) -> String {
    if let line = self.commandLine { return ":" + line }
    return self.log.statusLine(width: width) ?? "Ready. ? for the keys, m for messages, q to quit."
  }

  var noteSink: @Sendable (String) -> Void {
    let changes = self.changes
    return { text in
      changes.note(text)
      changes.increment()
    }
  }

  func run() async {
    defer { self.terminal.restore() }
    let changes = self.changes
    // On a terminal, plugins' log lines go to the status line.
    self.app.onLog { feature, level, message in
      changes.note("\(feature): \(level.rawValue): \(message)")
      changes.increment()
    }
    let printsChanges = self.printsChanges
    self.app.onChange { change in
      changes.increment()
      if printsChanges {
        changes.note(ChangeLine.text(change))
      } else if case .failure(let error) = change {
        changes.note(error.description)
      } else if case .swap(let report) = change {
        changes.note("⇄ \(report)")
      }
    }
    let clock = ContinuousClock()
    var (drawn, drawnAt, drawnSize) = (-1, clock.now - .seconds(1), self.terminal.size)
    // A message arrived since the last redraw (it may come after the change it is about).
    var unshownNotes = false
    while true {
      for note in changes.takeNotes() {
        self.log.append(note)
        unshownNotes = true
      }
      // Something changed (the app, the terminal's size, the meter's text), and a frame has
      // passed since the last redraw: draw. The app queue is never waited on otherwise.
      let size = self.terminal.size
      let meterText = self.meterLine(width: size.columns)
      let changed =
        changes.value != drawn || size != drawnSize || meterText != self.meterText
        || unshownNotes
      if changed, clock.now - drawnAt >= Self.frame {
        (drawn, drawnAt, drawnSize, unshownNotes) = (changes.value, clock.now, size, false)
        self.meterText = meterText
        self.draw()
      }
      let keys = self.terminal.readKeys(timeout: changed || self.meter != nil ? 16 : 100)
      guard !keys.isEmpty else { continue }
      for key in keys where await self.handle(key) == false { return }
      (drawn, drawnAt) = (changes.value, clock.now)
      self.draw()
    }
  }

  private func handle(_ key: Key) async -> Bool {
    // An overlay scrolls with ↑ ↓ (the help from its top, the messages from their newest);
    // any other key closes it.
    if self.showsHelp || self.showsMessages {
      switch (key, self.showsHelp) {
      case (.down, true), (.up, false): self.overlayScroll += 1
      case (.up, true), (.down, false): self.overlayScroll = max(0, self.overlayScroll - 1)
      default:
        (self.showsHelp, self.showsMessages) = (false, false)
        return key != .interrupt
      }
      return true
    }
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
          line.removeLast()
          self.commandLine = line
        }
      case .character(let character):
        line.append(character)
        self.commandLine = line
      default:
        break
      }
      return true
    }
    let keys = self.keyMap
    switch key {
    case .character("q"), .interrupt, .end:
      return false
    case .character(":"):
      self.commandLine = ""
    case .character("?"):
      (self.showsHelp, self.overlayScroll) = (true, 0)
    case .character("m"):
      (self.showsMessages, self.overlayScroll) = (true, 0)
    case .character(let character) where keys.binding(for: character) != nil:
      let binding = keys.binding(for: character)!
      self.send(binding.action, to: binding.path ?? self.app.currentPath)
    case .character(let digit) where keys.hotAction(for: digit) != nil:
      self.send(keys.hotAction(for: digit)!, to: self.app.currentPath)
    case .character("b"), .backspace, .left:
      let action: NavigationAction = self.app.navigation.presented != nil ? .dismiss : .pop
      self.attempt { try self.app.navigate(action) }
    case .up: self.sendNamed("up")
    case .down: self.sendNamed("down")
    case .enter, .right: self.sendNamed("open")
    default:
      break
    }
    return true
  }

  /// The keys of the screen on top.
  var keyMap: KeyMap {
    let node = InstancePath(parsing: self.app.currentPath)?.last.key ?? self.app.config.root
    let app = self.app
    let current = app.currentPath
    return KeyMap(config: app.config, node: node, hotActions: self.hotActions) { binding in
      let name = String(binding.action.prefix { $0 != "(" })
      let feature = try? app.instance(binding.path ?? current).feature
      return feature?.actions.first { $0.name == name }?.summary
    }
  }

  /// The screen's actions a digit sends: those without fields that people send (an action
  /// marked sent by an effect, a processor or the host is never bound).
  private var hotActions: [KeyMap.HotAction] {
    guard let handle = try? self.app.instance(self.app.currentPath) else { return [] }
    return handle.feature.actions.filter { $0.fields.isEmpty && $0.sentBy == nil }.prefix(9)
      .map { KeyMap.HotAction($0.name, $0.summary) }
  }

  private func sendNamed(_ name: String) {
    if self.hotActions.contains(where: { $0.name == name }) {
      self.send(name, to: self.app.currentPath)
    }
  }

  private func send(_ action: String, to path: String) {
    self.attempt {
      try CrashNote.sending(action) { () throws(AppError) in try self.app.send(path, action) }
      self.log.append("\(path) ← \(action)")
    }
  }

  private func attempt(_ body: () throws -> Void) {
    do {
      try body()
    } catch {
      self.log.append("✗ \(error)")
    }
  }

  private func execute(_ line: String) async {
    self.lineNumber += 1
    let collected = Collected()
    let runner = ScriptRunner(app: self.app, name: "command") { collected.append($0) }
    switch await runner.run(line: line, number: self.lineNumber) {
    case nil, .finished?:
      self.log.append("✓ \(line)")
    case .failed(let message)?, .invalid(let message)?:
      self.log.append("✗ \(message)")
    }
    self.output = collected.lines.flatMap { $0.split(separator: "\n").map(String.init) }
  }
}

/// Counts what happened in the app, and keeps what it said, for the session's loop.
private final class Counter: @unchecked Sendable {
  private let lock = NSLock()
  private var count = 0
  private var notes: [String] = []
  var value: Int { self.lock.withLock { self.count } }
  func increment() { self.lock.withLock { self.count += 1 } }
  func note(_ text: String) { self.lock.withLock { self.notes.append(text) } }
  /// What was said since the last time.
  func takeNotes() -> [String] {
    self.lock.withLock {
      defer { self.notes.removeAll() }
      return self.notes
    }
  }
}

private final class Collected: @unchecked Sendable {
  private let lock = NSLock()
  private var stored: [String] = []
  var lines: [String] { self.lock.withLock { self.stored } }
  func append(_ line: String) { self.lock.withLock { self.stored.append(line) } }
}
