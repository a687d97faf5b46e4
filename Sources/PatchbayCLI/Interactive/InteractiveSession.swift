import Foundation
import PatchbayHost
import PatchbayLoader
import PatchbayScript
import PatchbaySound

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
/// setStep(by: 5)`, `push echo`, `state`, …); ? shows every key; q or Ctrl-C quits.
final class InteractiveSession {
  let app: AppRuntime
  let title: String
  /// The mix's level, when the app plays sound (a meter under the view).
  let meter: LevelMeter?
  let terminal: RawTerminal
  private let changes = Counter()
  var status = "Ready. ? for the keys, q to quit."
  var output: [String] = []
  var commandLine: String?
  /// The help overlay is up: the next key closes it.
  var showsHelp = false
  private var lineNumber = 0
  /// What the meter showed last: it redraws only when its text changes.
  var meterText = ""
  /// The levels shown, each falling about 16 dB a second unless a louder one comes (a
  /// click of 25 ms stays visible).
  var heldLevels: [(peak: Float, rms: Float)] = []

  /// Redrawn at most this often (60 a second), and only when something changed.
  static let frame = Duration.milliseconds(16)

  init(app: AppRuntime, title: String, meter: LevelMeter? = nil) throws {
    self.app = app
    self.title = title
    self.meter = meter
    self.terminal = try RawTerminal()
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
    self.app.onChange { change in
      changes.increment()
      if case .failure(let error) = change { changes.note(error.description) }
      if case .swap(let report) = change { changes.note("⇄ \(report)") }
    }
    let clock = ContinuousClock()
    var (drawn, drawnAt, drawnSize) = (-1, clock.now - .seconds(1), self.terminal.size)
    var lastStatusNote: String?
    while true {
      if let note = changes.lastNote, note != lastStatusNote {
        lastStatusNote = note
        self.status = note
      }
      // Something changed (the app, the terminal's size, the meter's text), and a frame has
      // passed since the last redraw: draw. The app queue is never waited on otherwise.
      let size = self.terminal.size
      let meterText = self.meterLine(width: size.columns)
      let changed = changes.value != drawn || size != drawnSize || meterText != self.meterText
      if changed, clock.now - drawnAt >= Self.frame {
        (drawn, drawnAt, drawnSize) = (changes.value, clock.now, size)
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
    if self.showsHelp {
      self.showsHelp = false
      return key != .interrupt
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
      self.showsHelp = true
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
    return KeyMap(config: self.app.config, node: node, hotActions: self.hotActions)
  }

  private var hotActions: [String] {
    guard let handle = try? self.app.instance(self.app.currentPath) else { return [] }
    return handle.feature.actions.filter(\.fields.isEmpty).map(\.name).prefix(9).map { $0 }
  }

  private func sendNamed(_ name: String) {
    if self.hotActions.contains(name) { self.send(name, to: self.app.currentPath) }
  }

  private func send(_ action: String, to path: String) {
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
}

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
