import CPatchbayProcessGroup
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A `patchbay repro-child` process, kept from one candidate to the next: the plugins are
/// loaded once, and each candidate is a new app in it, so a replay that passes costs its steps
/// and no process start. A crash or a hang ends the process (its report on stderr); the next
/// candidate starts another.
///
/// ```swift
/// let server = ReplayServer(executable: "/usr/bin/patchbay", arguments: ["repro-child", config])
/// server.replay("candidate-1.jsonl")   // .passed, .failed([…]) or .stopped("…")
/// server.stop()
/// ```
///
/// Start it from a thread that outlives it: the process dies with the thread that started it
/// (`PB_GROUP_DIE_WITH_PARENT`).
final class ReplayServer {
  let executable: String
  let arguments: [String]
  /// How long one replay may take on the clock before it is ended as stuck (its own watchdog
  /// names a call that hangs much sooner).
  let wallSeconds: Double
  private var pid: pid_t = 0
  private var input: Int32 = -1
  private var output = Stream()
  private var errors = Stream()

  init(executable: String, arguments: [String], wallSeconds: Double = 600) {
    self.executable = executable
    self.arguments = arguments
    self.wallSeconds = wallSeconds
  }

  deinit { self.stop() }

  /// Replays the recording `file`.
  func replay(_ file: String) -> ReproRunner.Outcome {
    if self.pid == 0, let why = self.start() { return .stopped(why) }
    self.errors.bytes.removeAll()
    let line = Array((file + "\n").utf8)
    guard line.withUnsafeBytes({ write(self.input, $0.baseAddress, $0.count) }) == line.count
    else { return self.ended() }
    var failures: [(failure: ReproFailure, report: String)] = []
    var stopped: String?
    let deadline = ContinuousClock.now + .seconds(self.wallSeconds)
    while ContinuousClock.now < deadline {
      Stream.read([self.output, self.errors].map(\.descriptor), into: &self.output, &self.errors)
      while let said = self.output.takeLine() {
        if said == "end" {
          if !failures.isEmpty { return .failed(failures) }
          return stopped.map { .stopped($0) } ?? .passed
        } else if said.hasPrefix("failure ") {
          let report = String(said.dropFirst("failure ".count))
          if let failure = ReproFailure(report: report) { failures.append((failure, report)) }
        } else if said.hasPrefix("stopped ") {
          stopped = String(said.dropFirst("stopped ".count))
        }
      }
      if self.output.ended { return self.ended() }
    }
    kill(self.pid, SIGKILL)
    _ = self.ended()
    return .stopped("the replay did not finish in \(Int(self.wallSeconds)) s")
  }

  /// Ends the process: its input closed, it exits.
  func stop() {
    guard self.pid != 0 else { return }
    close(self.input)
    var status: Int32 = 0
    waitpid(self.pid, &status, 0)
    pb_group_reaped()
    self.closeAll()
  }

  /// Starts the process; why not, when it cannot be.
  private func start() -> String? {
    var ends: [[Int32]] = [[-1, -1], [-1, -1], [-1, -1]]
    for index in ends.indices {
      guard pipe(&ends[index]) == 0 else {
        return "cannot make a pipe: \(String(cString: strerror(errno)))"
      }
      ends[index].forEach { _ = fcntl($0, F_SETFD, FD_CLOEXEC) }
    }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_adddup2(&actions, ends[0][0], 0)
    posix_spawn_file_actions_adddup2(&actions, ends[1][1], 1)
    posix_spawn_file_actions_adddup2(&actions, ends[2][1], 2)
    let argv = ([self.executable] + self.arguments).map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    var pid = pid_t()
    let spawned = pb_group_spawn(
      &pid, self.executable, &actions, argv, environ, Int32(PB_GROUP_DIE_WITH_PARENT))
    close(ends[0][0])
    close(ends[1][1])
    close(ends[2][1])
    guard spawned == 0 else {
      [ends[0][1], ends[1][0], ends[2][0]].forEach { close($0) }
      return "could not start \(self.executable): \(String(cString: strerror(spawned)))"
    }
    self.pid = pid
    self.input = ends[0][1]
    self.output = Stream(descriptor: ends[1][0])
    self.errors = Stream(descriptor: ends[2][0])
    return nil
  }

  /// The process ended (a crash, a hang, or it could not load the plugins): what its stderr
  /// said, read to its end.
  private func ended() -> ReproRunner.Outcome {
    close(self.input)
    let until = ContinuousClock.now + .seconds(2)
    while !self.errors.ended, ContinuousClock.now < until {
      Stream.read([self.errors.descriptor], into: &self.errors, &self.output)
    }
    var status: Int32 = 0
    waitpid(self.pid, &status, 0)
    pb_group_reaped()
    let signal = status & 0x7F
    let ending: ReproRunner.Ending =
      signal == 0 ? .exited((status >> 8) & 0xFF) : .signaled(signal)
    let stderr = String(decoding: self.errors.bytes, as: UTF8.self)
    self.closeAll()
    return ReproRunner.outcome(ending, stderr: stderr)
  }

  private func closeAll() {
    [self.output.descriptor, self.errors.descriptor].forEach { if $0 >= 0 { close($0) } }
    self.pid = 0
    self.input = -1
    self.output = Stream()
    self.errors = Stream()
  }

  /// A pipe's read end and what came out of it.
  struct Stream {
    var descriptor: Int32 = -1
    var bytes: [UInt8] = []
    var ended = false

    /// The next whole line, taken out.
    mutating func takeLine() -> String? {
      guard let newline = self.bytes.firstIndex(of: UInt8(ascii: "\n")) else { return nil }
      let line = String(decoding: self.bytes[..<newline], as: UTF8.self)
      self.bytes.removeSubrange(...newline)
      return line
    }

    /// Waits up to 50 ms for either to have something, then reads what each has.
    static func read(_ descriptors: [Int32], into first: inout Stream, _ second: inout Stream) {
      var polled = descriptors.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
      guard poll(&polled, nfds_t(polled.count), 50) > 0 else { return }
      var buffer = [UInt8](repeating: 0, count: 65_536)
      for entry in polled where entry.revents != 0 {
        let count = Glibc.read(entry.fd, &buffer, buffer.count)
        if entry.fd == first.descriptor {
          if count > 0 { first.bytes += buffer[..<count] } else { first.ended = true }
        } else if entry.fd == second.descriptor {
          if count > 0 { second.bytes += buffer[..<count] } else { second.ended = true }
        }
      }
    }
  }
}
