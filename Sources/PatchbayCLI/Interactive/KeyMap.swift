import PatchbayConfig
import PatchbayHost

/// What each key does on the screen on top: its feature's keys (`keys = [...]` of its
/// `[[feature]]`), then the app's (`[keys]`), then the terminal's own — arrows and ⏎ send
/// `up`/`down`/`open` where the screen has them, 1–9 its actions without fields, `b` back,
/// `:` a command, `?` this help, `q` quit.
///
/// ```swift
/// let keys = KeyMap(config: app.config, node: "trainer", hotActions: ["skip"])
/// keys.binding(for: "a")   // KeyBinding(key: "a", path: nil, action: "key(0)")
/// keys.footer              // ["a key(0)", "w key(1)", …, "space toggle", "? help", …]
/// ```
struct KeyMap {
  let screen: [KeyBinding]
  let global: [KeyBinding]
  /// The screen's actions without fields, on 1–9 unless a binding takes the digit.
  let hotActions: [String]

  init(config: AppConfig, node: String, hotActions: [String]) {
    self.screen = config.node(node)?.keys ?? []
    self.global = config.terminal.keys.filter { binding in
      !(config.node(node)?.keys ?? []).contains { $0.key == binding.key }
    }
    self.hotActions = hotActions
  }

  /// The binding `key` runs, if any.
  func binding(for key: Character) -> KeyBinding? {
    self.screen.first { $0.key == key } ?? self.global.first { $0.key == key }
  }

  /// The hot action a digit sends (1 is the first), unless a binding takes the digit.
  func hotAction(for digit: Character) -> String? {
    guard self.binding(for: digit) == nil, let number = digit.wholeNumberValue, number >= 1,
      number <= self.hotActions.count
    else { return nil }
    return self.hotActions[number - 1]
  }

  /// Key hints for the footer, most specific first.
  var footer: [String] {
    let digits = self.hotActions.enumerated().compactMap { index, action in
      self.binding(for: Character(String(index + 1))) == nil ? "\(index + 1) \(action)" : nil
    }
    return self.screen.map { "\($0.name) \(Self.short($0.action))" } + digits
      + self.global.map { "\($0.name) \(Self.short($0.action))" }
      + ["? help", "b back", ": command", "q quit"]
  }

  /// Every key, one a line, for the help overlay.
  var help: [String] {
    var lines = ["Keys on this screen"]
    lines += self.screen.map {
      "  \($0.name.padding(toLength: 7, withPad: " ", startingAt: 0)) \($0.action)"
    }
    lines += self.hotActions.enumerated().map { "  \($0.offset + 1)       \($0.element)" }
    if !self.global.isEmpty {
      lines += ["", "Keys on every screen"]
      lines += self.global.map {
        "  \($0.name.padding(toLength: 7, withPad: " ", startingAt: 0)) \($0.action) → \($0.path ?? "")"
      }
    }
    lines += [
      "", "The terminal's", "  ↑ ↓ ⏎   up, down, open (where the screen has them)",
      "  b ←     back (pop or dismiss)", "  :       a command (send, push, swap, state…)",
      "  ?       this help (any key closes it)", "  q       quit",
    ]
    return lines
  }

  /// `key(0)` stays; `setProgression("Am F C G")` becomes `setProgression…`.
  static func short(_ action: String) -> String {
    action.count <= 12 ? action : String(action.prefix(11)) + "…"
  }
}
