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
/// keys = ["a key(0)", "w key(1)", "n skip"]   # keys of this screen: KEY ACTION
/// ```
///
/// A key is one character, or `space`. `q`, `b`, `:` and `?` are the terminal's own (quit,
/// back, a command, help), and a screen's key wins over a global one.
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
  ]
}

/// A key and what it sends: `space` → `toggle` (to the screen), or → `toggle` at
/// `studio/metronome`.
public struct KeyBinding: Sendable, Equatable {
  public let key: Character
  /// Where the action goes; nil: the screen on top.
  public let path: String?
  public let action: String
  public let line: Int

  public init(key: Character, path: String?, action: String, line: Int) {
    (self.key, self.path, self.action, self.line) = (key, path, action, line)
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
