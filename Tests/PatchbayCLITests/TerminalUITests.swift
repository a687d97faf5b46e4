import Foundation
import PatchbayConfig
import Testing

/// What a newcomer met in the terminal UI: messages cut to one line, keys that did nothing or
/// were hidden, `--print-changes` that showed nothing. Each on a real terminal (tmux).
@Suite(.enabled(if: Tmux.available, "tmux is not installed: apt-get install -y tmux"))
struct TerminalUITests {
  static let counter = "\(CheckTests.root)/host-config/counter-echo.toml"
  static let studio = "\(CheckTests.root)/host-config/studio.toml"

  /// An action only an effect sends (`delayedIncrement`, marked so) is never on a digit.
  @Test func anActionSentByAnEffectIsNotBound() async throws {
    let tmux = try await Tmux.start("\(CLI.directory)/patchbay run \(Self.counter); sleep 30")
    defer { tmux.kill() }
    #expect(await tmux.waitFor("keys: 1 increment  2 decrement  3 reset  ? help  b back"))
    await tmux.keys("?")
    #expect(await tmux.waitFor("  3       reset  (Back to zero)"))
    #expect(!(await tmux.screen()).contains("delayedIncrement"))
  }

  /// At 80 × 24 the trainer's 18 keys do not fit: the terminal's own stay in sight, and the
  /// keys show their labels (`a key(0) # C`). The help lists each key once, scrolling.
  @Test func theTerminalsKeysStayInSightAtEightyColumns() async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
    defer { try? FileManager.default.removeItem(at: folder) }
    let tmux = try await Tmux.start(
      "XDG_STATE_HOME=\(folder.path) \(CLI.directory)/patchbay run \(Self.studio) --audio null "
        + "--plugin-path \(CLI.directory); sleep 30", columns: 80, rows: 24)
    defer { tmux.kill() }
    #expect(await tmux.waitFor("keys: 1 Practice  2 Trainer  3 Monitor  ? help  b back"))
    await tmux.keys("2")
    #expect(await tmux.waitFor("keys: a C  w C#  s D  e D#"))
    #expect(await tmux.waitFor("? help  b back  : command  q quit\n"))
    await tmux.keys("?")
    #expect(await tmux.waitFor("  a       C: key(0)"))
    #expect(await tmux.waitFor(": ↑ ↓ scroll, any other key closes)"))
    for _ in 0..<30 { await tmux.keys("Down") }  // past the end: it stops at the last line
    #expect(await tmux.waitFor("  q       quit"))
    await tmux.keys("Escape")
    await tmux.keys("b")
    await tmux.keys("?")
    // The screen's binding of 1 works, so only it is listed for 1 (not the hot action `up`).
    #expect(await tmux.waitFor("  1       Practice: go(0)"))
    let help = await tmux.screen()
    #expect(help.components(separatedBy: "\n  1 ").count == 2, "\(help)")
  }

  /// A message longer than the line: its start, and `m` for the whole of it, wrapped.
  @Test func aLongMessageIsReadWholeWithM() async throws {
    let tmux = try await Tmux.start(
      "\(CLI.directory)/patchbay run \(Self.counter); sleep 30", columns: 80, rows: 24)
    defer { tmux.kill() }
    #expect(await tmux.waitFor("keys: 1 increment"))
    let long = "send counter setStep(by: \"" + String(repeating: "x", count: 150) + "\")"
    await tmux.keys(":", long, "Enter")
    #expect(await tmux.waitFor("[m: the whole message]"))
    await tmux.keys("m")
    #expect(await tmux.waitFor("Messages "))
    // Wrapped, not cut: the message's end is on the screen.
    #expect(await tmux.waitFor("xxxx\")"))
    await tmux.keys("Escape")
    #expect(await tmux.waitFor("keys: 1 increment"))
  }

  /// `--print-changes` on a terminal: each change, with its diff, in the message log.
  @Test func printChangesShowsTheDiffsInTheLog() async throws {
    let tmux = try await Tmux.start(
      "\(CLI.directory)/patchbay run \(Self.counter) --print-changes; sleep 30")
    defer { tmux.kill() }
    #expect(await tmux.waitFor("keys: 1 increment"))
    await tmux.keys("1")
    #expect(await tmux.waitFor("[command] counter ← increment  [m: the whole message]"))
    await tmux.keys("m")
    #expect(await tmux.waitFor("    /count: 0 → 1"))
  }

  /// A Swift plugin's fatal error in the terminal UI: the runtime's own line (file, line,
  /// message) is printed with the report once the terminal is back, as a script prints it.
  @Test func aFatalErrorsOwnLineOutlivesTheScreen() async throws {
    // This build of the ticker (Plugins/Fixtures/Numbered) traps on `pause`.
    let folder = try numberedFixtureFolder(["TickerCrashing"], prefix: "fatal")
    defer { try? FileManager.default.removeItem(at: folder) }
    try Data().write(to: folder.appendingPathComponent("ticks"))
    try AppConfig.oneFeature(
      "dev.patchbay.fixture.ticker", of: "\(folder.path)/libTickerCrashing.so", key: "ticker"
    ).write(
      to: folder.appendingPathComponent("app.toml"), atomically: true, encoding: .utf8)
    let tmux = try await Tmux.start(
      "\(CLI.directory)/patchbay run \(folder.path)/app.toml; echo EXITED $?; sleep 30")
    defer { tmux.kill() }
    #expect(await tmux.waitFor("keys: "))
    await tmux.keys(":", "send ticker start(source: \"\(folder.path)/ticks\")", "Enter")
    await tmux.keys(":", "send ticker pause", "Enter")
    #expect(await tmux.waitFor("EXITED 3"))
    let screen = await tmux.screen()
    #expect(screen.contains("patchbay: written to stderr while the terminal UI ran:"), "\(screen)")
    #expect(
      screen.contains("Ticker.swift:110: Fatal error: this build of the ticker crashes on pause"),
      "\(screen)")
    #expect(screen.contains("patchbay: a plugin crashed the app with SIGILL"), "\(screen)")
  }
}
