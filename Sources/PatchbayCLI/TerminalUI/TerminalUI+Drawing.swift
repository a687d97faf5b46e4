import Foundation
import PatchbayAudioGraph
import PatchbayConfig
import PatchbayHost

/// What a terminal shows: breadcrumb, pinned views, the screen, the meter, the footer.
extension TerminalUI {
  func draw() {
    let (rows, columns) = self.terminal.size
    let rule = String(repeating: "─", count: max(0, columns))
    let navigation = self.app.navigation
    let crumbs =
      ([self.app.config.root] + navigation.stack.map(\.description)
      + (navigation.presented.map { ["[\($0)]"] } ?? [])).joined(separator: " › ")
    var lines = ["\(self.title) — \(crumbs)"]
    lines += self.pinnedLines()
    lines.append(rule)
    if self.showsHelp {
      lines += self.helpLines(rows: rows - lines.count - 3)
    } else if self.showsMessages {
      lines += self.messageLines(rows: rows - lines.count - 3, columns: columns)
    } else {
      let view = (try? self.app.renderCurrent()) ?? "(cannot render \(self.app.currentPath))"
      lines += view.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
      if !self.output.isEmpty {
        lines.append("")
        lines += self.output
      }
    }
    var footer = [rule]
    if !self.meterText.isEmpty { footer.append(self.meterText) }
    let keys = self.keyMap.footer
    footer += [
      Self.fit(keys.hints, keeping: keys.terminal, width: columns),
      self.statusLine(width: columns),
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

  /// The views of `[terminal] pinned` nodes, unless the screen on top shows them already (the
  /// root shows its children).
  func pinnedLines() -> [String] {
    let current = self.app.currentPath
    var lines: [String] = []
    for key in self.app.config.terminal.pinned {
      guard let path = self.app.paths.first(where: { InstancePath(parsing: $0)?.last.key == key }),
        !path.hasPrefix(current + "/"), path != current,
        let view = try? self.app.instance(path).render()
      else { continue }
      lines += view.split(separator: "\n").map(String.init)
    }
    return lines
  }

  /// `L ▕██████████▌·········▏ -14 dB   R ▕…▏ -15 dB`: each channel's RMS as a bar from -60 dB
  /// to full scale, its peak as `▌`; empty without sound.
  func meterLine(width: Int) -> String {
    guard let meter = self.meter else { return "" }
    let fresh = meter.take()
    let levels = fresh.enumerated().map { index, level in
      let held = index < self.heldLevels.count ? self.heldLevels[index] : (peak: 0, rms: 0)
      return (peak: max(level.peak, held.peak * 0.97), rms: max(level.rms, held.rms * 0.97))
    }
    self.heldLevels = levels
    guard levels.contains(where: { $0.peak > 0 }) || !self.meterText.isEmpty else { return "" }
    let barWidth = max(8, min(30, (width - 30) / 2))
    func position(_ level: Float) -> Int {
      let decibels = level > 0 ? max(-60, 20 * log10(Double(level))) : -60
      return Int(((decibels + 60) / 60 * Double(barWidth)).rounded())
    }
    let channels = zip(["L", "R"], levels).map { name, level in
      let (fill, peak) = (position(level.rms), position(level.peak))
      let bar = (0..<barWidth).map { index in
        index < fill ? "█" : index == max(fill, peak - 1) ? "▌" : "·"
      }.joined()
      let decibels =
        level.peak > 0 ? String(format: "%4.0f dB", 20 * log10(Double(level.peak))) : "  -∞ dB"
      return "\(name) ▕\(bar)▏\(decibels)"
    }
    return channels.joined(separator: "   ")
  }

  /// As many hints as fit on one line of `width`, then the terminal's own keys, which always
  /// do (at any width from 36 on: `keys: ? help  b back  : command  q quit`).
  static func fit(_ hints: [String], keeping terminal: [String], width: Int) -> String {
    let tail = terminal.joined(separator: "  ")
    var line = "keys:"
    for hint in hints {
      guard line.count + 2 + hint.count + 2 + tail.count <= width else { break }
      line += (line == "keys:" ? " " : "  ") + hint
    }
    return line + (line == "keys:" ? " " : "  ") + tail
  }

  /// The message log, wrapped, its newest lines at the bottom, scrolled up by
  /// `messageScroll`.
  func messageLines(rows: Int, columns: Int) -> [String] {
    let all = self.log.lines(width: columns)
    guard !all.isEmpty else { return ["No messages yet. Any key closes this."] }
    let rows = max(1, rows - 1)
    self.overlayScroll = min(self.overlayScroll, max(0, all.count - rows))
    let end = all.count - self.overlayScroll
    let header =
      "Messages \(max(1, end - rows + 1))–\(end) of \(all.count) lines (↑ ↓ scroll, any other key closes)"
    return [header] + all[max(0, end - rows)..<end]
  }

  /// The help, from its top scrolled down by `overlayScroll`, with a line saying how to see
  /// the rest when it does not fit.
  func helpLines(rows: Int) -> [String] {
    let all = self.keyMap.help
    guard all.count > rows else { return all }
    let rows = max(1, rows - 1)
    self.overlayScroll = min(self.overlayScroll, all.count - rows)
    let start = self.overlayScroll
    return Array(all[start..<start + rows])
      + ["(lines \(start + 1)–\(start + rows) of \(all.count): ↑ ↓ scroll, any other key closes)"]
  }
}
