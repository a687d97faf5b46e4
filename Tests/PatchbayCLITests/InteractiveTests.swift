import Foundation
import Testing

/// `patchbay run` on a real terminal: tmux runs it, `send-keys` types, `capture-pane` reads the
/// screen. (`make test` installs tmux when it is missing.)
@Suite(.enabled(if: Tmux.available, "tmux is not installed: apt-get install -y tmux"))
struct InteractiveTests {
  @Test func navigateByKeysUseTheCommandLineAndQuit() async throws {
    let tmux = try await Tmux.start(
      "\(CLI.directory)/patchbay run \(DemoTests.config); echo EXITED $?; sleep 30")
    defer { tmux.kill() }
    #expect(await tmux.waitFor("Patchbay demo — home"))
    #expect(await tmux.waitFor("keys: 1 up  2 down  3 open  ? help  b back  : command  q quit"))
    #expect(await tmux.waitFor("▸ Counter (Swift plugin)"))

    await tmux.keys("Down", "Down")
    #expect(await tmux.waitFor("▸ Practice"))
    await tmux.keys("Enter")
    #expect(await tmux.waitFor("Patchbay demo — home › practice#1"))
    #expect(await tmux.waitFor("Question 1 of 3: 2 + 3 = ?"))

    await tmux.keys(":send practice/quiz answer(5)", "Enter")
    #expect(await tmux.waitFor("Question 2 of 3: 7 × 6 = ?"))
    #expect(await tmux.waitFor("✓ send practice/quiz answer(5)"))

    await tmux.keys(":pop now", "Enter")
    #expect(await tmux.waitFor("✗ command:2: 'pop' takes no arguments"))

    await tmux.keys("b")
    #expect(await tmux.waitFor("Patchbay demo — home\n"))
    await tmux.keys("q")
    #expect(await tmux.waitFor("EXITED 0"))
  }

  @Test func ctrlCRestoresTheTerminal() async throws {
    let tmux = try await Tmux.start(
      "\(CLI.directory)/patchbay run \(DemoTests.config); echo EXITED $?; stty -a | head -1; sleep 30"
    )
    defer { tmux.kill() }
    #expect(await tmux.waitFor("Patchbay demo — home"))
    await tmux.keys("C-c")
    #expect(await tmux.waitFor("EXITED 0"))
    // Back on the normal screen, in cooked mode: the app's view is gone.
    let screen = await tmux.screen()
    #expect(!screen.contains("keys: 1 up"))
  }

  /// Isolated, a crash typed at the command line shows its report in the status line, and the
  /// app goes on with the plugin's state.
  @Test func anIsolatedCrashIsReportedAndTheAppGoesOn() async throws {
    let tmux = try await Tmux.start(
      "\(CLI.directory)/patchbay run \(CheckTests.root)/host-config/hostile.toml; "
        + "echo EXITED $?; sleep 30")
    defer { tmux.kill() }
    #expect(await tmux.waitFor("hostile: steady"))
    await tmux.keys(":", "send hostile loud", "Enter")
    #expect(await tmux.waitFor("hostile: loud"))
    await tmux.keys(":", "send hostile crashThread", "Enter")
    // The status line has the report's start; `m` shows it whole.
    #expect(await tmux.waitFor("[m: the whole message]"))
    await tmux.keys("m")
    #expect(await tmux.waitFor("error: dev.patchbay.fixture-hostile-plugin crashed: SIGSEGV"))
    await tmux.keys("Escape")
    // The thread sent `quiet` before it crashed; the restarted plugin has it.
    #expect(await tmux.waitFor("hostile: quiet"))
    await tmux.keys(":", "send hostile steady", "Enter")
    #expect(await tmux.waitFor("hostile: steady"))
    await tmux.keys("q")
    #expect(await tmux.waitFor("EXITED 0"))
  }

  /// A reduce that never returns, typed at the command line: the watchdog ends the app with
  /// exit 3 and its report, and the terminal is back in cooked mode on the normal screen.
  @Test func aHangReportRestoresTheTerminal() async throws {
    let (config, folder) = try ProcessorSafetyTests.app("[limits]\ncall-seconds = 1")
    defer { try? FileManager.default.removeItem(at: folder) }
    let tmux = try await Tmux.start(
      "\(CLI.directory)/patchbay run \(config); echo EXITED $?; "
        + "stty -a | tr ' ;' '\\n\\n' | grep -x -e '-\\?icanon' -e '-\\?echo'; "
        + "echo STTY-SHOWN; sleep 30")
    defer { tmux.kill() }
    #expect(await tmux.waitFor("hostile: steady"))
    await tmux.keys(":", "send first hang", "Enter")
    #expect(await tmux.waitFor("EXITED 3"))
    // The screen once stty has printed, not merely once the app has exited.
    #expect(await tmux.waitFor("STTY-SHOWN"))
    let screen = await tmux.screen()
    #expect(screen.contains("a plugin call did not return within 1 s: in its reduce"))
    #expect(!screen.contains("keys:"))
    // Cooked mode again: canonical input and echo are on ("-icanon", "-echo" would be raw).
    let lines = screen.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
    #expect(lines.contains("icanon") && lines.contains("echo"), "\(screen)")
  }
}

/// A tmux session running one command.
struct Tmux: Sendable {
  let name: String

  static var available: Bool {
    FileManager.default.isExecutableFile(atPath: "/usr/bin/tmux")
      || FileManager.default.isExecutableFile(atPath: "/usr/local/bin/tmux")
  }

  /// `command` in a terminal of `columns` × `rows`.
  static func start(_ command: String, columns: Int = 100, rows: Int = 30) async throws -> Tmux {
    let tmux = Tmux(name: "patchbay-test-\(UUID().uuidString.prefix(8))")
    // Not captured: the first session starts the tmux server, which would inherit the pipes
    // and keep them open forever.
    _ = try await run(
      ["new-session", "-d", "-s", tmux.name, "-x", "\(columns)", "-y", "\(rows)", command],
      capture: false)
    return tmux
  }

  func keys(_ keys: String...) async {
    for key in keys {
      // Literal text with -l; named keys (Enter, Down, C-c) without.
      let named = ["Enter", "Down", "Up", "Left", "Right", "Escape", "BSpace", "C-c"].contains(key)
      _ = try? await Self.run(
        ["send-keys", "-t", self.name] + (named ? [key] : ["-l", key]), capture: false)
      try? await Task.sleep(for: .milliseconds(100))
    }
  }

  /// Makes the window `columns` wide, as a person dragging the terminal's edge does.
  func resize(columns: Int) async {
    _ = try? await Self.run(
      ["resize-window", "-t", self.name, "-x", "\(columns)"], capture: false)
  }

  func screen() async -> String {
    (try? await Self.run(["capture-pane", "-p", "-t", self.name])) ?? ""
  }

  /// Polls the screen until it contains `text` (120 s at most: the bound stops a hang only).
  func waitFor(_ text: String) async -> Bool {
    let deadline = ContinuousClock.now.advanced(by: .seconds(120))
    while ContinuousClock.now < deadline {
      if await self.screen().contains(text) { return true }
      try? await Task.sleep(for: .milliseconds(100))
    }
    Issue.record("the screen never showed \(text.debugDescription):\n\(await self.screen())")
    return false
  }

  /// The first line of the screen that `matches` (120 s at most), or nil (recorded as an issue).
  func waitForLine(_ matches: (String) -> Bool) async -> String? {
    let deadline = ContinuousClock.now.advanced(by: .seconds(120))
    while ContinuousClock.now < deadline {
      if let line = await self.screen().split(separator: "\n").map(String.init).first(
        where: matches)
      {
        return line
      }
      try? await Task.sleep(for: .milliseconds(50))
    }
    Issue.record("the screen never showed such a line:\n\(await self.screen())")
    return nil
  }

  func kill() {
    _ = try? Self.spawn(
      ["tmux", "-L", Self.socket, "kill-session", "-t", self.name], capture: false)
  }

  /// Runs a tmux command (on its own server socket, so no user session is touched) with
  /// posix_spawn and waitpid: the tmux server that `new-session` forks inherits descriptors, so
  /// Foundation's `Process`, which watches them, would wait for it forever.
  private static func run(_ arguments: [String], capture: Bool = true) async throws -> String {
    try await withCheckedThrowingContinuation { continuation in
      DispatchQueue.global().async {
        continuation.resume(
          with: Result {
            try self.spawn(["tmux", "-L", Self.socket] + arguments, capture: capture)
          })
      }
    }
  }

  private static func spawn(_ arguments: [String], capture: Bool) throws -> String {
    let output = FileManager.default.temporaryDirectory.appendingPathComponent(
      "tmux-\(UUID().uuidString)"
    ).path
    defer { try? FileManager.default.removeItem(atPath: output) }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(
      &actions, 1, capture ? output : "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
    defer { for pointer in argv { free(pointer) } }
    var pid: pid_t = 0
    let status = posix_spawnp(&pid, "tmux", &actions, nil, &argv, environ)
    guard status == 0 else { throw CocoaError(.fileNoSuchFile) }
    var exit: Int32 = 0
    waitpid(pid, &exit, 0)
    return capture ? ((try? String(contentsOfFile: output, encoding: .utf8)) ?? "") : ""
  }

  static let socket = "patchbay-tests-\(getpid())"
}
