import CJACK
import Foundation
import PatchbayTestWaiting

/// A private JACK server for one test: `jackd -n NAME -d dummy`, which needs no sound card,
/// started and stopped by the test (Debian's `jackd2`; `make deps` installs it).
final class JACKServer: @unchecked Sendable {
  static let executable = "/usr/bin/jackd"
  let name: String
  private let process = Process()

  /// Starts a server at `rate` Hz with `frames`-frame buffers, and waits until it takes clients.
  init(frames: Int = 128, rate: Int = 48_000) async throws {
    guard FileManager.default.isExecutableFile(atPath: Self.executable) else {
      throw ServerError("\(Self.executable) is missing: apt-get install -y jackd2 (make deps)")
    }
    self.name = "patchbay-test-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
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
    let name = self.name
    guard await eventually(seconds: 30, { Self.takesClients(name) }) else {
      self.stop()
      throw ServerError("jackd -n \(name) -d dummy did not start within 30 s")
    }
  }

  deinit { self.stop() }

  /// Stops the server, as a user quitting it would (SIGTERM), and waits for it.
  func stop() {
    guard self.process.isRunning else { return }
    self.process.terminate()
    self.process.waitUntilExit()
  }

  /// Kills the server outright (SIGKILL), as a crash would.
  func kill() {
    guard self.process.isRunning else { return }
    Foundation.kill(self.process.processIdentifier, SIGKILL)
    self.process.waitUntilExit()
  }

  /// A client on this server for the test's own checks (ports, buffer size); nil if none.
  func withClient<R>(_ body: (OpaquePointer) -> R) -> R? {
    var status = jack_status_t(rawValue: 0)
    guard let client = jack_client_open_with_server("patchbay-test-probe", self.name, &status)
    else { return nil }
    defer { jack_client_close(client) }
    return body(client)
  }

  private static func takesClients(_ name: String) -> Bool {
    var status = jack_status_t(rawValue: 0)
    guard let client = jack_client_open_with_server("patchbay-test-ping", name, &status) else {
      return false
    }
    jack_client_close(client)
    return true
  }

  struct ServerError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
  }
}
