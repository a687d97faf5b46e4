import PatchbayConfig
import PatchbayHost

/// What each key does on the screen on top: its feature's keys (`keys = [...]` of its
/// `[[feature]]`), then the app's (`[keys]`), then the terminal's own — arrows and ⏎ send
/// `up`/`down`/`open` where the screen has them, 1–9 its actions without fields that people
/// send (not those marked sent by an effect, a processor or the host), `b` back, `:` a
/// command, `?` this help, `q` quit.
///
/// ```swift
/// let keys = KeyMap(config: app.config, node: "trainer", hotActions: [.init("skip", "Skips")])
/// keys.binding(for: "a")   // KeyBinding(key: "a", path: nil, action: "key(0)", label: "C")
/// keys.footer              // (["a C", "w C#", …, "1 skip"], ["? help", "b back", …])
/// ```
struct KeyMap {
  /// An action a digit sends: its name, and its summary (the label).
  struct HotAction: Equatable {
    let name: String
    let summary: String

    init(_ name: String, _ summary: String = "") {
      (self.name, self.summary) = (name, summary)
    }
  }

  let screen: [KeyBinding]
  let global: [KeyBinding]
  /// The screen's actions without fields, on 1–9 unless a binding takes the digit.
  let hotActions: [HotAction]
  /// The summary of an action a binding sends (by the binding), when it has one.
  let summary: (KeyBinding) -> String?

  /// The terminal's own keys, always shown.
  static let terminalKeys = ["? help", "b back", ": command", "q quit"]

  init(
    config: AppConfig, node: String, hotActions: [HotAction],
    summary: @escaping (KeyBinding) -> String? = { _ in nil }
  ) {
    self.screen = config.node(node)?.keys ?? []
    self.global = config.terminal.keys.filter { binding in
      !(config.node(node)?.keys ?? []).contains { $0.key == binding.key }
    }
    self.hotActions = hotActions
    self.summary = summary
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
    return self.hotActions[number - 1].name
  }

  /// The digits that send a hot action, with it.
  private var digits: [(key: String, action: HotAction)] {
    self.hotActions.enumerated().compactMap { index, action in
      let digit = Character(String(index + 1))
      return self.binding(for: digit) == nil ? (String(digit), action) : nil
    }
  }

  /// What the footer calls a binding: its label (`"1 go(0) # Practice"`), else its action as
  /// written. (A summary, cut to fit, said less than the name: the help shows it whole.)
  func label(_ binding: KeyBinding) -> String {
    binding.label ?? binding.action
  }

  /// Key hints for the footer, most specific first; the terminal's own keys apart, so that
  /// they stay in sight at any width.
  var footer: (hints: [String], terminal: [String]) {
    let hints =
      self.screen.map { "\($0.name) \(Self.short(self.label($0)))" }
      + self.digits.map { "\($0.key) \(Self.short($0.action.name))" }
      + self.global.map { "\($0.name) \(Self.short(self.label($0)))" }
    return (hints, Self.terminalKeys)
  }

  /// Every key once, with what it does there, for the help overlay.
  var help: [String] {
    func row(_ key: String, _ text: String) -> String {
      "  \(key.padding(toLength: 7, withPad: " ", startingAt: 0)) \(text)"
    }
    func described(_ binding: KeyBinding) -> String {
      let target = binding.path.map { " → \($0)" } ?? ""
      let summary = self.summary(binding).map { $0.isEmpty ? "" : "  (\($0))" } ?? ""
      let label = binding.label.map { "\($0): " } ?? ""
      return label + binding.action + target + summary
    }
    var lines = ["Keys on this screen"]
    lines += self.screen.map { row($0.name, described($0)) }
    lines += self.digits.map { digit in
      row(
        digit.key,
        digit.action.name + (digit.action.summary.isEmpty ? "" : "  (\(digit.action.summary))"))
    }
    if !self.global.isEmpty {
      lines += ["", "Keys on every screen"]
      lines += self.global.map { row($0.name, described($0)) }
    }
    lines += [
      "", "The terminal's", "  ↑ ↓ ⏎   up, down, open (where the screen has them)",
      "  b ←     back (pop or dismiss)", "  :       a command (send, push, swap, state…)",
      "  m       the messages, whole (↑ ↓ to scroll)",
      "  ?       this help (any key closes it)", "  q       quit",
    ]
    return lines
  }

  /// `skip` stays; `setProgression("Am F C G")` becomes `setProgression(…`.
  static func short(_ text: String) -> String {
    text.count <= 16 ? text : String(text.prefix(15)) + "…"
  }
}
