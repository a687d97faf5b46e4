import Foundation

/// How `patchbay run` shows the app on a terminal: views pinned above every screen, and keys.
///
/// ```toml
/// [terminal]
/// pinned = ["metronome"]                  # its view stands above every screen: the beat
///
/// [keys]                                  # keys that work on every screen
/// space = "studio/metronome toggle"
/// "+" = "studio/metronome faster"
///
/// [[feature]]
/// key = "trainer"
/// keys = ["a key(0) # C", "w key(1) # C#", "n skip"]   # this screen's: KEY ACTION [# LABEL]
/// ```
///
/// A key is one character, or `space`. `q`, `b`, `:`, `?` and `m` are the terminal's own
/// (quit, back, a command, help, messages), and a screen's key wins over a global one.
public struct TerminalSettings: Sendable, Equatable {
  /// Node keys whose views stand above every screen.
  public var pinned: [String] = []
  /// Keys that work on every screen, each sending an action to a path.
  public var keys: [KeyBinding] = []

  public init(pinned: [String] = [], keys: [KeyBinding] = []) {
    (self.pinned, self.keys) = (pinned, keys)
  }

  /// The terminal's own keys, which bindings may not take.
  public static let reserved: [Character: String] = [
    "q": "quits", "b": "goes back", ":": "starts a command", "?": "shows the help",
    "m": "shows the messages",
  ]
}

/// A key and what it sends: `space` → `toggle` (to the screen), or → `toggle` at
/// `studio/metronome`.
public struct KeyBinding: Sendable, Equatable {
  public let key: Character
  /// Where the action goes; nil: the screen on top.
  public let path: String?
  public let action: String
  /// What the footer and the help call it: the text after ` # ` (`"1 go(0) # Practice"`).
  public let label: String?
  public let line: Int

  public init(key: Character, path: String?, action: String, label: String? = nil, line: Int) {
    (self.key, self.path, self.action, self.label, self.line) = (key, path, action, label, line)
  }

  /// An action and its label: `go(0) # Practice` → (`go(0)`, `Practice`). A ` # ` inside a
  /// quoted string is the action's.
  static func splitLabel(_ text: String) -> (action: String, label: String?) {
    var quoted = false
    var previous: Character?
    var cut: String.Index?
    for index in text.indices {
      let character = text[index]
      if character == "\"", previous != "\\" { quoted.toggle() }
      if !quoted, character == "#", previous == " ",
        text.index(after: index) < text.endIndex, text[text.index(after: index)] == " "
      {
        cut = index
      }
      previous = character
    }
    guard let cut else { return (text, nil) }
    let action = text[..<cut].trimmingCharacters(in: .whitespaces)
    let label = text[text.index(after: cut)...].trimmingCharacters(in: .whitespaces)
    return (action, label.isEmpty ? nil : label)
  }

  /// How the key is written: `space`, `a`.
  public var name: String { self.key == " " ? "space" : String(self.key) }

  /// The key a name in a config means, or why it cannot be one.
  static func parse(_ name: String) -> (key: Character?, problem: ConfigError.Reason?) {
    let key: Character
    if name == "space" {
      key = " "
    } else if name.count == 1, let only = name.first, !only.isWhitespace,
      only.unicodeScalars.allSatisfy({ $0.value >= 0x21 && $0.value < 0x7F })
    {
      key = only
    } else {
      return (nil, .badKey(name))
    }
    if let use = TerminalSettings.reserved[key] { return (nil, .reservedKey(name, use)) }
    return (key, nil)
  }
}
