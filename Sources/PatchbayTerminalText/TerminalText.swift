import Foundation

/// Text from plugins made safe to show on a terminal: every control character a plugin string
/// could carry — `ESC[2J`, an OSC title change, a colour, a carriage return that hides what was
/// written — is written out as a visible escape instead, as `\u{1B}[2J`.
///
/// ```swift
/// "\u{1B}]0;pwned\u{07}Count: 3".terminalSafe      // "\u{1B}]0;pwned\u{07}Count: 3", visibly
/// "line one\nline two".terminalSafe                   // unchanged: newlines and tabs are kept
/// ```
///
/// Every line the CLI writes goes through it (``Terminal``; the terminal UI sanitizes each
/// frame's lines itself), so no path from a plugin (a view,
/// an action's text, a log line, a failure reason, a summary in `inspect`) reaches the terminal
/// raw. JSON output passes unchanged: JSON already escapes control characters.
extension String {
  public var terminalSafe: String {
    guard self.unicodeScalars.contains(where: \.isTerminalControl) else { return self }
    var safe = ""
    safe.unicodeScalars.reserveCapacity(self.unicodeScalars.count)
    for scalar in self.unicodeScalars {
      if scalar.isTerminalControl {
        safe += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
      } else {
        safe.unicodeScalars.append(scalar)
      }
    }
    return safe
  }
}

extension Unicode.Scalar {
  /// C0 controls but newline and tab, DEL, and the C1 controls (U+0080–U+009F, which some
  /// terminals read as escape sequences too).
  public var isTerminalControl: Bool {
    (self.value < 0x20 && self != "\n" && self != "\t") || (0x7F...0x9F).contains(self.value)
  }
}

/// The CLI's output: each line made ``Swift/String/terminalSafe`` first.
public enum Terminal {
  /// A line on standard output.
  public static func out(_ line: String) {
    print(line.terminalSafe)
  }

  /// A line on standard error.
  public static func error(_ line: String) {
    FileHandle.standardError.write(Data((line.terminalSafe + "\n").utf8))
  }
}
