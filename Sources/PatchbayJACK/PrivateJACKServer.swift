import CJACK
import Foundation
import Synchronization

/// A JACK server of one's own, for tests and checks: `jackd -n NAME -d dummy`, which needs no
/// sound card, under a name no session uses, stopped when it goes.
///
/// ```swift
/// let server = try PrivateJACKServer(frames: 128, rate: 48_000)
/// let output = try JACKOutput(clientName: "patchbay", serverName: server.name, renderer: graph)
/// // … `jack_lsp -s \(server.name)` lists patchbay:out_1 …
/// server.stop()
/// ```
///
/// It runs without realtime scheduling (`--no-realtime`), so it needs no privileges, and in
/// JACK's synchronous mode (`-S`), unless asked for realtime (`realtime: true`, for benchmarks:
/// `-R -P 70`, which needs root or an rtprio limit); the clocks of its periods are the dummy
/// driver's. Synchronous, because on a loaded machine an asynchronous server without realtime
/// scheduling left two connected clients "Triggered" and never woke them again (its log: "client
/// = trio was not finished, state = Triggered", every period, after the load had gone): a test
/// waited forever in 2 of 3 runs under `.ci/under-load`; synchronous, 0 of 6.
///
/// **One server per process at a time.** libjack keeps the server its clients talk to in
/// process-wide globals (JACK2's `JackLibGlobals`: the engine's and the graph's shared memory),
/// so a process with clients of two servers at once crashes in libjack. Tests that start
/// servers take turns (`.oneJACKServerAtATime` in the test suites).
///
/// **It leaves nothing behind.** JACK2 registers servers in `/dev/shm/jack-shm-registry`,
/// which holds eight, and forgets one only when it stops cleanly or when a server of the same
/// name starts again. So the name is `patchbay-test-PID-N` (this process's id, a counter); a
/// server ``kill()``ed is started again under its name and stopped cleanly by ``stop()``, and a
/// server whose test process died without stopping it (its PID in the name is gone) is stopped
/// by the next one started.
///
/// Stop it yourself, after its clients close: `defer { server.stop() }` before the client's
/// own `defer`. Its `deinit` stops it too, but Swift may end a local's life at its last use.
public final class PrivateJACKServer: @unchecked Sendable {
  /// Where Debian's `jackd2` puts the server.
  public static let executable = "/usr/bin/jackd"
  public let name: String
  private let frames: Int
  private let rate: Int
  private let realtime: Bool
  private var process: Process
  private let log: URL
  private var killed = false

  /// Starts a server at `rate` Hz with `frames`-frame buffers, and waits (up to `timeout`
  /// seconds) until it takes clients.
  public init(
    frames: Int = 128, rate: Int = 48_000, realtime: Bool = false, timeout: Double = 30
  ) throws {
    guard FileManager.default.isExecutableFile(atPath: Self.executable) else {
      throw Failure(
        "\(Self.executable) is missing: install the JACK server with apt-get install -y jackd2 "
          + "(make deps does)")
    }
    Self.stopOrphans()
    self.name = "\(Self.prefix)\(getpid())-\(Self.counter.add(1, ordering: .relaxed).newValue)"
    (self.frames, self.rate, self.realtime) = (frames, rate, realtime)
    self.log = FileManager.default.temporaryDirectory.appendingPathComponent("\(self.name).log")
    self.process = try Self.start(
      self.name, frames: frames, rate: rate, realtime: realtime, log: self.log)
    let deadline = ContinuousClock.now.advanced(by: .milliseconds(Int(timeout * 1000)))
    while !Self.takesClients(self.name) {
      guard self.process.isRunning, ContinuousClock.now < deadline else {
        let said = Self.lastLine(of: self.log).map { ": it said \"\($0)\"" } ?? ""
        let ended = self.process.isRunning ? "did not start within \(timeout) s" : "stopped"
        self.stop()
        throw Failure(
          "jackd -n \(self.name) -d dummy \(ended)\(said) (a JACK2 registry full of stale "
            + "servers is mended with: pkill jackd; rm -rf /dev/shm/jack*)")
      }
      usleep(10_000)
    }
  }

  deinit {
    self.stop()
    try? FileManager.default.removeItem(at: self.log)
  }

  /// Stops the server as a user quitting it would (SIGTERM), and waits for it; one that has not
  /// gone in 10 s is killed. A server ``kill()``ed is started again under its name and stopped
  /// cleanly, which takes the killed one's entry out of JACK's registry: call this after the
  /// clients of the killed server have closed.
  public func stop() {
    if self.process.isRunning {
      self.process.terminate()
      if Self.waitForExit(of: self.process, seconds: 10) { return }
      Foundation.kill(self.process.processIdentifier, SIGKILL)
      self.process.waitUntilExit()
    } else if self.killed {
      self.killed = false
      guard
        let again = try? Self.start(
          self.name, frames: self.frames, rate: self.rate, realtime: self.realtime,
          log: self.log)
      else { return }
      let deadline = ContinuousClock.now.advanced(by: .seconds(10))
      while again.isRunning, !Self.takesClients(self.name), ContinuousClock.now < deadline {
        usleep(10_000)
      }
      self.process = again
      self.stop()
      Self.removeSemaphores(of: self.name)
    }
  }

  /// Kills the server outright (SIGKILL), as a crash would, and waits for it. Its entry in
  /// JACK's registry stays until ``stop()``.
  public func kill() {
    guard self.process.isRunning else { return }
    Foundation.kill(self.process.processIdentifier, SIGKILL)
    self.process.waitUntilExit()
    self.killed = true
  }

  /// Runs `body` with a client of this server of its own (to list ports, change the buffer
  /// size); nil when the server takes none.
  public func withClient<R>(_ body: (OpaquePointer) -> R) -> R? {
    var status = jack_status_t(rawValue: 0)
    guard let client = jack_client_open_with_server("patchbay-probe", self.name, &status)
    else { return nil }
    defer { jack_client_close(client) }
    return body(client)
  }

  /// Why the server could not start: one line naming what is missing.
  public struct Failure: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
  }

  private static let prefix = "patchbay-test-"
  private static let counter = Atomic<Int>(0)

  private static func start(
    _ name: String, frames: Int, rate: Int, realtime: Bool, log: URL
  ) throws -> Process {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: Self.executable)
    process.arguments =
      (realtime ? ["-R", "-P", "70"] : ["--no-realtime", "-S"])
      + ["-n", name, "-d", "dummy", "-r", "\(rate)", "-p", "\(frames)"]
    _ = FileManager.default.createFile(atPath: log.path, contents: nil)
    process.standardOutput = FileHandle.nullDevice
    process.standardError = try FileHandle(forWritingTo: log)
    var environment = ProcessInfo.processInfo.environment
    environment["JACK_NO_AUDIO_RESERVATION"] = "1"
    process.environment = environment
    try process.run()
    return process
  }

  private static func takesClients(_ name: String) -> Bool {
    JACKMessages.silence()
    var status = jack_status_t(rawValue: 0)
    guard let client = jack_client_open_with_server("patchbay-ping", name, &status) else {
      return false
    }
    jack_client_close(client)
    return true
  }

  private static func waitForExit(of process: Process, seconds: Int) -> Bool {
    let deadline = ContinuousClock.now.advanced(by: .seconds(seconds))
    while process.isRunning {
      if ContinuousClock.now >= deadline { return false }
      usleep(5_000)
    }
    return true
  }

  /// Stops (SIGTERM) the private servers whose test process has gone: `jackd … -n
  /// patchbay-test-PID-N` with no process PID.
  private static func stopOrphans() {
    guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else {
      return
    }
    for entry in entries {
      guard let pid = Int32(entry),
        let bytes = FileManager.default.contents(atPath: "/proc/\(entry)/cmdline")
      else { continue }
      let arguments = bytes.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
      guard arguments.first?.hasSuffix("jackd") == true,
        let name = arguments.first(where: { $0.hasPrefix(Self.prefix) }),
        let owner = Int32(name.dropFirst(Self.prefix.count).prefix { $0 != "-" }),
        owner != getpid(), Foundation.kill(owner, 0) != 0, errno == ESRCH
      else { continue }
      Foundation.kill(pid, SIGTERM)
    }
  }

  /// The semaphores a killed server left in `/dev/shm` for its clients
  /// (`jack_sem.UID_NAME_CLIENT`).
  private static func removeSemaphores(of name: String) {
    let directory = "/dev/shm"
    let files = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
    for file in files where file.hasPrefix("jack_sem.") && file.contains("_\(name)_") {
      try? FileManager.default.removeItem(atPath: "\(directory)/\(file)")
    }
  }

  private static func lastLine(of log: URL) -> String? {
    guard let text = try? String(contentsOf: log, encoding: .utf8) else { return nil }
    return text.split(whereSeparator: \.isNewline).last.map(String.init)
  }
}
