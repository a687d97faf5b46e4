import Foundation
import Testing

/// A command that starts processes leaves none behind when it is killed, however it is
/// killed: the validator's test children (and, with `--isolated`, their plugins' processes)
/// and the isolated plugins of `run --isolate`. Each run is killed while its children are
/// busy: the Flawed fixture's `resetspins` spins in its first `reset`, and the validator's
/// watchdog is told to wait ten minutes.
@Suite struct NoOrphansTests {
  /// What one kill left: the processes below the command when it was ready and just before the
  /// kill, and those of them still running a second after.
  struct Killed {
    let below: [ProcessTree.Entry]
    let left: [ProcessTree.Entry]
    let commandGroup: pid_t
    /// The signal that ended the command; nil when it exited.
    let signal: Int32?
  }

  /// Starts `patchbay arguments` (its standard input a pipe left open, its signals at their
  /// defaults: a test runner may ignore SIGINT and SIGTERM, and its children inherit that),
  /// waits until `ready` holds of the processes below it, sends it `signal`, and looks every
  /// 10 ms for a second for any of those processes still running.
  static func kill(
    _ arguments: [String], with signal: Int32,
    once ready: @escaping @Sendable ([ProcessTree.Entry]) -> Bool
  ) async throws -> Killed {
    // On a thread of its own: the test pool may be held by other tests for longer than
    // either wait below, and a wait must look again after its deadline, not before.
    try await withCheckedThrowingContinuation { continuation in
      DispatchQueue.global().async {
        continuation.resume(with: Result { try self.killBlocking(arguments, signal, ready) })
      }
    }
  }

  private static func killBlocking(
    _ arguments: [String], _ signal: Int32, _ ready: ([ProcessTree.Entry]) -> Bool
  ) throws -> Killed {
    var input: [Int32] = [-1, -1]
    try #require(pipe(&input) == 0)
    _ = fcntl(input[1], F_SETFD, FD_CLOEXEC)
    defer { close(input[1]) }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_adddup2(&actions, input[0], 0)
    // What it says goes to a file, for the failure message.
    let said = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString).path
    defer { try? FileManager.default.removeItem(atPath: said) }
    posix_spawn_file_actions_addopen(&actions, 1, said, O_WRONLY | O_CREAT | O_APPEND, 0o600)
    posix_spawn_file_actions_adddup2(&actions, 1, 2)
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var defaults = sigset_t()
    sigemptyset(&defaults)
    [SIGINT, SIGTERM, SIGHUP].forEach { sigaddset(&defaults, $0) }
    var unblocked = sigset_t()
    sigemptyset(&unblocked)
    posix_spawnattr_setsigdefault(&attributes, &defaults)
    posix_spawnattr_setsigmask(&attributes, &unblocked)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
    let executable = "\(CLI.directory)/patchbay"
    let argv = ([executable] + arguments).map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    var pid = pid_t()
    try #require(posix_spawn(&pid, executable, &actions, &attributes, argv, environ) == 0)
    close(input[0])
    let commandGroup = getpgid(pid)
    var below: [ProcessTree.Entry] = []
    // Starting may be slow on a busy machine; what is judged is the time after the kill.
    let started = ContinuousClock.now
    while true {
      below = ProcessTree.descendants(of: pid)
      if ready(below) || started.duration(to: .now) > .seconds(300) { break }
      Thread.sleep(forTimeInterval: 0.05)
    }
    let saidSoFar = (try? String(contentsOfFile: said, encoding: .utf8)) ?? ""
    #expect(
      ready(below),
      "never ready: \(below.map(\.command)); the command: \(String(describing: ProcessTree.entry(pid))), which said: \(saidSoFar)"
    )
    // Seen when ready, and any started since: a test child may end its test between the two
    // reads and its successor not yet have its plugin's process, so neither read alone is
    // what the kill must end.
    let seen = below
    below += ProcessTree.descendants(of: pid).filter { now in
      !seen.contains { $0.pid == now.pid && $0.started == now.started }
    }
    Foundation.kill(pid, signal)
    var left = below
    let killed = ContinuousClock.now
    while true {
      let late = killed.duration(to: .now) >= .seconds(1)
      left = ProcessTree.running(left)
      if left.isEmpty || late { break }
      Thread.sleep(forTimeInterval: 0.01)
    }
    left.forEach { Foundation.kill($0.pid, SIGKILL) }  // none, but a failing test cleans up
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    return Killed(
      below: below, left: left, commandGroup: commandGroup,
      signal: status & 0x7F == 0 ? nil : status & 0x7F)
  }

  /// The Flawed fixture as `resetspins.so`: its `reset` never returns.
  static func spinning() throws -> String { try ValidateTests.flawed("resetspins") }

  /// Two test children at work (the validator runs two tests at once on two cores).
  static func childrenAtWork(_ below: [ProcessTree.Entry]) -> Bool {
    let jobs = min(2, ProcessInfo.processInfo.activeProcessorCount)
    return below.filter { $0.command.contains("--child") }.count >= jobs
  }

  @Test(arguments: [SIGKILL, SIGTERM, SIGINT])
  func aKilledValidatorLeavesNoTestBehind(signal: Int32) async throws {
    let killed = try await Self.kill(
      ["validate", try Self.spinning(), "--seed", "3", "--call-seconds", "600"], with: signal,
      once: Self.childrenAtWork)
    #expect(!killed.below.isEmpty)
    #expect(killed.left.isEmpty, "still running: \(killed.left.map(\.command))")
    #expect(killed.signal == signal, "the validator ends by the signal it was sent")
    // One process group for the run's children, not the shell's: a terminal's ^C reaches
    // the validator, which ends the group.
    #expect(Set(killed.below.map(\.group)).count == 1)
    #expect(killed.below.first?.group != killed.commandGroup)
  }

  /// `validate --isolated`: each test child has its plugin's process below it, in the same
  /// group; killing the validator ends the children (the kernel's parent-death signal), and
  /// so their plugins' processes (their lifeline reads end of file).
  @Test func aKilledIsolatedValidatorLeavesNoPluginProcessBehind() async throws {
    let killed = try await Self.kill(
      ["validate", try Self.spinning(), "--seed", "3", "--call-seconds", "600", "--isolated"],
      with: SIGKILL
    ) { below in
      Self.childrenAtWork(below) && below.contains { $0.command.contains("patchbay-isolated") }
    }
    #expect(killed.below.contains { $0.command.contains("patchbay-isolated") })
    #expect(killed.left.isEmpty, "still running: \(killed.left.map(\.command))")
    #expect(Set(killed.below.map(\.group)).count == 1)
  }

  /// `run --isolate all`: the app's isolated plugins end with it, SIGKILL or SIGTERM.
  @Test(arguments: [SIGKILL, SIGTERM])
  func aKilledAppLeavesNoIsolatedPluginBehind(signal: Int32) async throws {
    let app = "\(CheckTests.root)/host-config/counter-echo.toml"
    let killed = try await Self.kill(["run", app, "--isolate", "all"], with: signal) { below in
      below.filter { $0.command.contains("patchbay-isolated") }.count >= 2
    }
    #expect(killed.left.isEmpty, "still running: \(killed.left.map(\.command))")
    #expect(Set(killed.below.map(\.group)).count == 1)
    #expect(killed.below.first?.group != killed.commandGroup)
  }

  /// A child whose parent ended before it could ask to die with it exits at once.
  @Test func aChildWhoseParentIsGoneExits() async throws {
    let orphan = try await CLI.run("--help", environment: ["PATCHBAY_PARENT": "1"])
    #expect(orphan.exitCode == 1)
    #expect(orphan.stdout.isEmpty)
    let adopted = try await CLI.run(
      "--help", environment: ["PATCHBAY_PARENT": "\(getpid())"])
    #expect(adopted.exitCode == 0)
  }
}
