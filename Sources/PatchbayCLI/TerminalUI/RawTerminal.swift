import CPatchbayProcessGroup
import Foundation
import PatchbayHost
import PatchbayLoader

#if canImport(Glibc)
  import Glibc
#endif

/// The terminal in full-screen raw mode: keys arrive one by one, unechoed, in an alternate
/// screen. Restored on `restore()`, on normal exit, and on SIGINT/SIGTERM/SIGHUP.
final class RawTerminal {
  private var original = termios()
  private static nonisolated(unsafe) var saved: termios?

  init() throws {
    guard isatty(STDIN_FILENO) == 1, tcgetattr(STDIN_FILENO, &self.original) == 0 else {
      throw CommandFailure("standard input is not a terminal")
    }
    Self.saved = self.original
    var raw = self.original
    raw.c_lflag &= ~tcflag_t(ECHO | ICANON | ISIG | IEXTEN)
    raw.c_iflag &= ~tcflag_t(IXON | ICRNL)
    tcsetattr(STDIN_FILENO, TCSAFLUSH, &raw)
    Self.write("\u{1B}[?1049h\u{1B}[?25l")
    // A plugin's crash or hang ends the process from a signal handler or the watchdog: the
    // terminal is put back there too.
    CrashReports.restoreTerminalOnExit(self.original, leaving: "\u{1B}[?25h\u{1B}[?1049l")
    // What is written to stderr meanwhile would be drawn over the screen and lost with it:
    // it is kept, and printed once the terminal is back (a crash's own line among it).
    CrashReports.captureStderr()
    for signal in [SIGINT, SIGTERM, SIGHUP] {
      Glibc.signal(signal) { number in
        pb_group_end()  // the isolated plugins' processes end with the app
        RawTerminal.restoreSaved(inSignalHandler: true)
        Glibc.signal(number, SIG_DFL)
        raise(number)
      }
    }
    atexit { RawTerminal.restoreSaved() }
  }

  /// Puts the terminal back as it was. Safe to call more than once.
  func restore() {
    Self.restoreSaved()
  }

  private static func restoreSaved(inSignalHandler: Bool = false) {
    guard var saved = Self.saved else { return }
    Self.saved = nil
    CrashReports.restoreTerminalOnExit(nil)
    tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved)
    Self.write("\u{1B}[?25h\u{1B}[?1049l")
    CrashReports.releaseStderr(inSignalHandler: inSignalHandler)
  }

  static func write(_ text: String) {
    var bytes = Array(text.utf8)
    var offset = 0
    while offset < bytes.count {
      let written = bytes.withUnsafeMutableBytes {
        Glibc.write(STDOUT_FILENO, $0.baseAddress! + offset, $0.count - offset)
      }
      if written <= 0 { return }
      offset += written
    }
  }

  /// The terminal's size in rows and columns (24 × 80 when unknown).
  var size: (rows: Int, columns: Int) {
    var size = winsize()
    guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_row > 0 else {
      return (24, 80)
    }
    return (Int(size.ws_row), Int(size.ws_col))
  }

  /// The keys typed (or pasted) next, or none when nothing arrives within `timeout` ms.
  func readKeys(timeout: Int32) -> [Key] {
    var descriptor = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
    guard poll(&descriptor, 1, timeout) > 0 else { return [] }
    var buffer = [UInt8](repeating: 0, count: 256)
    let count = read(STDIN_FILENO, &buffer, buffer.count)
    guard count > 0 else { return [.end] }
    return Key.parse(Array(buffer[0..<count]))
  }
}

/// A key press, decoded from the bytes a terminal sends.
enum Key: Equatable {
  case character(Character)
  case up, down, left, right, enter, escape, backspace, interrupt, end

  /// Splits what the terminal sent into keys: escape sequences, control bytes, characters.
  static func parse(_ bytes: [UInt8]) -> [Key] {
    var keys: [Key] = []
    var index = 0
    while index < bytes.count {
      let byte = bytes[index]
      if byte == 0x1B, index + 2 < bytes.count, bytes[index + 1] == 0x5B || bytes[index + 1] == 0x4F
      {
        keys.append(Key(Array(bytes[index...(index + 2)])))
        index += 3
      } else if byte < 0x80 {
        keys.append(Key([byte]))
        index += 1
      } else {
        // A UTF-8 character: its lead byte says how long it is.
        let length = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : 2
        let end = min(bytes.count, index + length)
        keys.append(Key(Array(bytes[index..<end])))
        index = end
      }
    }
    return keys
  }

  init(_ bytes: [UInt8]) {
    switch bytes {
    case [0x1B, 0x5B, 0x41], [0x1B, 0x4F, 0x41]: self = .up
    case [0x1B, 0x5B, 0x42], [0x1B, 0x4F, 0x42]: self = .down
    case [0x1B, 0x5B, 0x43]: self = .right
    case [0x1B, 0x5B, 0x44]: self = .left
    case [0x0D], [0x0A]: self = .enter
    case [0x1B]: self = .escape
    case [0x7F], [0x08]: self = .backspace
    case [0x03], [0x04]: self = .interrupt
    default:
      self = String(decoding: bytes, as: UTF8.self).first.map { .character($0) } ?? .escape
    }
  }
}
