import Foundation

/// A PipeWire daemon of one's own, for testing the JACK backend under PipeWire's JACK API:
/// headless (no session manager, no D-Bus, no sound card), its clock a dummy driver, its
/// socket in a private runtime folder. A program runs against it with ``environment``, which
/// is what `pw-jack` sets, plus that folder.
///
/// ```swift
/// let pipewire = try PrivatePipeWire()
/// defer { pipewire.stop() }
/// let run = try await CLI.run("run", "trio.toml", "--audio", "jack", environment: pipewire.environment)
/// ```
///
/// Its config is Debian's `minimal.conf` without the ALSA nodes (there is no card): the
/// protocol, client-node, adapter and link modules, and the `Dummy-Driver` that a JACK client
/// is scheduled by when nothing else drives it.
public final class PrivatePipeWire: @unchecked Sendable {
  public static let executable = "/usr/bin/pipewire"
  /// Where `pipewire-jack` puts PipeWire's `libjack.so.0` (what `pw-jack` adds to the path).
  public static let jackLibraries = "/usr/lib/x86_64-linux-gnu/pipewire-0.3/jack"
  public let folder: URL
  private let process = Process()

  /// Starts the daemon and waits (up to `timeout` seconds) for its socket.
  public init(timeout: Double = 30) throws {
    for path in [Self.executable, Self.jackLibraries + "/libjack.so.0"]
    where !FileManager.default.fileExists(atPath: path) {
      throw Failure(
        "\(path) is missing: install PipeWire's JACK API with apt-get install -y "
          + "--no-install-recommends pipewire pipewire-jack (make deps does)")
    }
    self.folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "patchbay-pipewire-\(getpid())-\(UUID().uuidString.prefix(8))")
    try FileManager.default.createDirectory(at: self.folder, withIntermediateDirectories: true)
    let config = self.folder.appendingPathComponent("pipewire.conf")
    try Self.config.write(to: config, atomically: true, encoding: .utf8)
    self.process.executableURL = URL(fileURLWithPath: Self.executable)
    self.process.arguments = ["-c", config.path]
    var environment = ProcessInfo.processInfo.environment
    environment["PIPEWIRE_RUNTIME_DIR"] = self.folder.path
    environment["XDG_RUNTIME_DIR"] = self.folder.path
    self.process.environment = environment
    self.process.standardOutput = FileHandle.nullDevice
    self.process.standardError = FileHandle.nullDevice
    try self.process.run()
    let socket = self.folder.appendingPathComponent("pipewire-0").path
    let deadline = ContinuousClock.now.advanced(by: .milliseconds(Int(timeout * 1000)))
    while !FileManager.default.fileExists(atPath: socket) {
      guard self.process.isRunning, ContinuousClock.now < deadline else {
        self.stop()
        throw Failure("pipewire -c \(config.path) did not start within \(timeout) s")
      }
      usleep(10_000)
    }
  }

  deinit { self.stop() }

  /// What a JACK program needs to run against this daemon: PipeWire's libjack first on the
  /// library path, this daemon's socket, and a 128-frame quantum at 48 kHz.
  public var environment: [String: String] {
    [
      "LD_LIBRARY_PATH": Self.jackLibraries,
      "PIPEWIRE_RUNTIME_DIR": self.folder.path,
      "XDG_RUNTIME_DIR": self.folder.path,
      "PIPEWIRE_QUANTUM": "128/48000",
    ]
  }

  /// Sets `key` of the daemon's `settings` metadata (`pw-metadata -n settings 0 KEY VALUE`):
  /// `clock.force-rate`, `clock.force-quantum`.
  public func setting(_ key: String, _ value: String) throws {
    let tool = Process()
    tool.executableURL = URL(fileURLWithPath: "/usr/bin/pw-metadata")
    tool.arguments = ["-n", "settings", "0", key, value]
    tool.environment = ProcessInfo.processInfo.environment.merging(self.environment) { $1 }
    tool.standardOutput = FileHandle.nullDevice
    tool.standardError = FileHandle.nullDevice
    try tool.run()
    tool.waitUntilExit()
    guard tool.terminationStatus == 0 else {
      throw Failure("pw-metadata -n settings 0 \(key) \(value) exited \(tool.terminationStatus)")
    }
  }

  /// Waits (up to `timeout` seconds) until a client named `name` has a node in the graph.
  /// Polls `pw-cli ls Node`; throws with its last output when the client never came.
  public func waitForClient(_ name: String, timeout: Double = 120) throws {
    let deadline = ContinuousClock.now.advanced(by: .milliseconds(Int(timeout * 1000)))
    var last = ""
    while ContinuousClock.now < deadline {
      let tool = Process()
      let pipe = Pipe()
      tool.executableURL = URL(fileURLWithPath: "/usr/bin/pw-cli")
      tool.arguments = ["ls", "Node"]
      tool.environment = ProcessInfo.processInfo.environment.merging(self.environment) { $1 }
      tool.standardOutput = pipe
      tool.standardError = pipe
      try tool.run()
      last = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
      tool.waitUntilExit()
      if last.contains("node.name = \"\(name)\"") { return }
      usleep(50_000)
    }
    throw Failure("no client \(name) in \(timeout) s; pw-cli ls Node said: \(last.prefix(2_000))")
  }

  /// Stops the daemon (SIGTERM), waits for it, and removes its folder.
  public func stop() {
    if self.process.isRunning {
      self.process.terminate()
      self.process.waitUntilExit()
    }
    try? FileManager.default.removeItem(at: self.folder)
  }

  public struct Failure: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
  }

  private static let config = """
    # A headless PipeWire for tests: no session manager, no D-Bus, no card.
    context.properties = {
        core.daemon = true
        core.name = pipewire-0
        support.dbus = false
        default.clock.rate = 48000
        default.clock.quantum = 128
        default.clock.min-quantum = 16
        default.clock.max-quantum = 8192
    }
    context.spa-libs = {
        support.* = support/libspa-support
    }
    context.modules = [
        { name = libpipewire-module-protocol-native }
        { name = libpipewire-module-profiler }
        { name = libpipewire-module-metadata }
        { name = libpipewire-module-spa-node-factory }
        { name = libpipewire-module-client-node }
        { name = libpipewire-module-access args = { } }
        { name = libpipewire-module-adapter }
        { name = libpipewire-module-link-factory }
    ]
    context.objects = [
        { factory = spa-node-factory
            args = {
                factory.name = support.node.driver
                node.name = Dummy-Driver
                node.group = pipewire.dummy
                priority.driver = 20000
            }
        }
        { factory = spa-node-factory
            args = {
                factory.name = support.node.driver
                node.name = Freewheel-Driver
                priority.driver = 19000
                node.group = pipewire.freewheel
                node.freewheel = true
            }
        }
    ]

    """
}
