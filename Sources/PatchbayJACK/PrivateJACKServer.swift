import CJACK
import Foundation

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
/// It runs without realtime scheduling (`--no-realtime`), so it needs no privileges; the
/// clocks of its periods are the dummy driver's.
public final class PrivateJACKServer: @unchecked Sendable {
  /// Where Debian's `jackd2` puts the server.
  public static let executable = "/usr/bin/jackd"
  public let name: String
  private let process = Process()

  /// Starts a server at `rate` Hz with `frames`-frame buffers, and waits (up to `timeout`
  /// seconds) until it takes clients.
  public init(frames: Int = 128, rate: Int = 48_000, timeout: Double = 30) throws {
    guard FileManager.default.isExecutableFile(atPath: Self.executable) else {
      throw Failure(
        "\(Self.executable) is missing: install the JACK server with apt-get install -y jackd2 "
          + "(make deps does)")
    }
    self.name = "patchbay-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    self.process.executableURL = URL(fileURLWithPath: Self.executable)
    self.process.arguments = [
      "--no-realtime", "-n", self.name, "-d", "dummy", "-r", "\(rate)", "-p", "\(frames)",
    ]
    self.process.standardOutput = FileHandle.nullDevice
    self.process.standardError = FileHandle.nullDevice
    var environment = ProcessInfo.processInfo.environment
    environment["JACK_NO_AUDIO_RESERVATION"] = "1"
    self.process.environment = environment
    try self.process.run()
    let deadline = ContinuousClock.now.advanced(by: .milliseconds(Int(timeout * 1000)))
    while !Self.takesClients(self.name) {
      guard self.process.isRunning, ContinuousClock.now < deadline else {
        self.stop()
        throw Failure("jackd -n \(self.name) -d dummy did not start within \(timeout) s")
      }
      usleep(10_000)
    }
  }

  deinit { self.stop() }

  /// Stops the server as a user quitting it would (SIGTERM), and waits for it.
  public func stop() {
    guard self.process.isRunning else { return }
    self.process.terminate()
    self.process.waitUntilExit()
  }

  /// Kills the server outright (SIGKILL), as a crash would, and waits for it.
  public func kill() {
    guard self.process.isRunning else { return }
    Foundation.kill(self.process.processIdentifier, SIGKILL)
    self.process.waitUntilExit()
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

  private static func takesClients(_ name: String) -> Bool {
    JACKMessages.silence()
    var status = jack_status_t(rawValue: 0)
    guard let client = jack_client_open_with_server("patchbay-ping", name, &status) else {
      return false
    }
    jack_client_close(client)
    return true
  }

  /// Why the server could not start: one line naming what is missing.
  public struct Failure: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
  }
}
