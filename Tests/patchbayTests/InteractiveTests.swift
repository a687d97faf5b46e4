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
    #expect(await tmux.waitFor("keys: 1 up  2 down  3 open  b back  : command  q quit"))
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
      "\(CLI.directory)/patchbay run \(DemoTests.config); echo EXITED $?; stty -a | head -1; sleep 30")
    defer { tmux.kill() }
    #expect(await tmux.waitFor("Patchbay demo — home"))
    await tmux.keys("C-c")
    #expect(await tmux.waitFor("EXITED 0"))
    // Back on the normal screen, in cooked mode: the app's view is gone.
    let screen = await tmux.screen()
    #expect(!screen.contains("keys: 1 up"))
  }
}

/// A tmux session running one command.
struct Tmux: Sendable {
  let name: String

  static var available: Bool {
    FileManager.default.isExecutableFile(atPath: "/usr/bin/tmux")
      || FileManager.default.isExecutableFile(atPath: "/usr/local/bin/tmux")
  }

  static func start(_ command: String) async throws -> Tmux {
    let tmux = Tmux(name: "patchbay-test-\(UUID().uuidString.prefix(8))")
    _ = try await run(["new-session", "-d", "-s", tmux.name, "-x", "100", "-y", "30", command])
    return tmux
  }

  func keys(_ keys: String...) async {
    for key in keys {
      // Literal text with -l; named keys (Enter, Down, C-c) without.
      let named = ["Enter", "Down", "Up", "Left", "Right", "Escape", "BSpace", "C-c"].contains(key)
      _ = try? await Self.run(["send-keys", "-t", self.name] + (named ? [key] : ["-l", key]))
      try? await Task.sleep(for: .milliseconds(100))
    }
  }

  func screen() async -> String {
    (try? await Self.run(["capture-pane", "-p", "-t", self.name])) ?? ""
  }

  /// Polls the screen until it contains `text` (10 s at most).
  func waitFor(_ text: String) async -> Bool {
    let deadline = ContinuousClock.now.advanced(by: .seconds(10))
    while ContinuousClock.now < deadline {
      if await self.screen().contains(text) { return true }
      try? await Task.sleep(for: .milliseconds(100))
    }
    Issue.record("the screen never showed \(text.debugDescription):\n\(await self.screen())")
    return false
  }

  func kill() {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["tmux", "kill-session", "-t", self.name]
    try? process.run()
    process.waitUntilExit()
  }

  private static func run(_ arguments: [String]) async throws -> String {
    try await withCheckedThrowingContinuation { continuation in
      DispatchQueue.global().async {
        continuation.resume(with: Result {
          let process = Process()
          process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
          process.arguments = ["tmux"] + arguments
          let out = Pipe()
          process.standardOutput = out
          process.standardError = Pipe()
          try process.run()
          let data = out.fileHandleForReading.readDataToEndOfFile()
          process.waitUntilExit()
          return String(decoding: data, as: UTF8.self)
        })
      }
    }
  }
}
