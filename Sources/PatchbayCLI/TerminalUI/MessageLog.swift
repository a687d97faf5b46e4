/// What the terminal UI said, whole: crash and rollback reports, swap results, refusals, log
/// lines and, with `--print-changes`, every change. The status line shows the newest one's
/// first line, and says when there is more; `m` opens the log, wrapped to the screen and
/// scrolled with ↑ ↓.
///
/// ```swift
/// var log = MessageLog()
/// log.append("✗ counter: reduce failed: …560 characters…")
/// log.statusLine(width: 80)   // "✗ counter: reduce failed: …  [m: the whole message]"
/// log.lines(width: 80)        // the message, wrapped at 80
/// ```
struct MessageLog {
  /// The messages, oldest first; the oldest go past ``capacity``.
  private(set) var messages: [String] = []
  static let capacity = 1_000
  static let more = "  [m: the whole message]"

  mutating func append(_ message: String) {
    self.messages.append(message)
    if self.messages.count > Self.capacity { self.messages.removeFirst() }
  }

  /// The newest message as one line of `width`: its first line, cut, and a hint when any of
  /// it is not shown.
  func statusLine(width: Int) -> String? {
    guard let newest = self.messages.last else { return nil }
    let first = newest.prefix { $0 != "\n" }
    if first.count == newest.count, first.count <= width { return String(first) }
    let room = max(0, width - Self.more.count)
    let shown = first.count <= room ? String(first) : String(first.prefix(max(0, room - 1))) + "…"
    return shown + Self.more
  }

  /// Every message, wrapped at `width` (at a space where one is near), a rule between them.
  func lines(width: Int) -> [String] {
    let width = max(width, 8)
    var lines: [String] = []
    for (index, message) in self.messages.enumerated() {
      if index > 0 { lines.append(String(repeating: "·", count: min(width, 3))) }
      for line in message.split(separator: "\n", omittingEmptySubsequences: false) {
        lines += Self.wrap(String(line), width: width)
      }
    }
    return lines
  }

  /// `text` in lines of at most `width`, broken at the last space of each when there is one
  /// in its second half.
  static func wrap(_ text: String, width: Int) -> [String] {
    var rest = Substring(text)
    var lines: [String] = []
    while rest.count > width {
      let window = rest.prefix(width)
      let cut =
        window.lastIndex(of: " ").flatMap {
          window.distance(from: window.startIndex, to: $0) >= width / 2 ? $0 : nil
        } ?? window.endIndex
      lines.append(String(rest[..<cut]))
      rest = rest[cut...].drop { $0 == " " }
    }
    lines.append(String(rest))
    return lines
  }
}
