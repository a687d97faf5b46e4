import CPatchbayChannel
import CPatchbayProcessGroup
import Foundation
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// One process an isolated plugin runs in: started with `posix_spawn` into the run's process
/// group (`patchbay_process_group.h`), the channel's memfd as its descriptor 3, a pipe for
/// its crash report as 4 and the read end of the host's lifeline as 5 (it reads end of file
/// when the host ends, however it ends, and exits), and watched by a reaper thread that waits
/// for it to end, ends the channel (so every wait returns) and keeps the report.
///
/// ```swift
/// let child = try ChildProcess.start(executable, arguments: [file], messageCapacity: 1 << 20)
/// child.call(length, seconds: 5, reply: &reply)             // PB_CHANNEL_ENDED once it died
/// child.waitForExit()                                       // "SIGSEGV (invalid memory …) in its reduce: …"
/// ```
///
/// `@unchecked Sendable`: `pid`, `channel` and the descriptors are immutable; `ending` is set
/// once, by the reaper, before it signals `exited`; `handler` is handed over by `handoff`.
package final class ChildProcess: @unchecked Sendable {
  package let pid: pid_t
  package let channel: UnsafeMutablePointer<pb_channel>
  private let reports: Int32
  private let exited = DispatchSemaphore(value: 0)
  private var ending: String?
  /// Who runs the end's handler: `whenEnded` and the reaper race for it on `handoff`
  /// (none → handler set → ended, or none → ended), so it runs exactly once, with no lock.
  private var handler: (@Sendable (ChildProcess, String) -> Void)?
  private let handoff = Atomic<Int>(Handoff.none)
  private enum Handoff {
    static let none = 0
    static let handlerSet = 1
    static let ended = 2
  }
  /// Ring bytes the host's reader has taken *and* handed to their contexts: while it trails
  /// what the process wrote, something the plugin said outside a call is still on its way.
  package let ringApplied = Atomic<UInt32>(0)
  /// The CPU time limit, 0 for none. [set before the reaper starts]
  private var cpuSeconds = 0

  private init(pid: pid_t, channel: UnsafeMutablePointer<pb_channel>, reports: Int32) {
    self.pid = pid
    self.channel = channel
    self.reports = reports
  }

  deinit {
    pb_channel_unmap(self.channel)
  }

  /// Starts `executable` with `arguments`; throws a one-line reason when it cannot.
  /// `cpuSeconds`: the CPU time the process may use (0: no limit), to say so when it ran out.
  package static func start(
    _ executable: String, arguments: [String], messageCapacity: Int, cpuSeconds: Int = 0
  ) throws(IsolationError) -> ChildProcess {
    var memory: Int32 = -1
    guard let channel = pb_channel_create(messageCapacity, &memory) else {
      throw IsolationError(
        "cannot create the shared memory for it: \(String(cString: strerror(errno)))")
    }
    var pipe: (Int32, Int32) = (-1, -1)
    let piped = withUnsafeMutableBytes(of: &pipe) {
      Glibc.pipe($0.baseAddress!.assumingMemoryBound(to: Int32.self))
    }
    _ = fcntl(pipe.0, F_SETFD, FD_CLOEXEC)
    _ = fcntl(pipe.1, F_SETFD, FD_CLOEXEC)
    guard piped == 0 else {
      pb_channel_unmap(channel)
      close(memory)
      throw IsolationError("cannot create a pipe for it: \(String(cString: strerror(errno)))")
    }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    // dup2 onto another number clears close-on-exec; the originals are above 4 or get moved.
    let channelFD = fcntl(memory, F_DUPFD_CLOEXEC, 10)
    let reportFD = fcntl(pipe.1, F_DUPFD_CLOEXEC, 10)
    // Not the host's terminal: the plugin reads nothing the user types.
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_adddup2(&actions, channelFD, 3)
    posix_spawn_file_actions_adddup2(&actions, reportFD, 4)
    posix_spawn_file_actions_adddup2(&actions, Self.lifeline, 5)
    // Nothing else of the host's: a descriptor it left open (a FIFO's writing end, a socket)
    // would stay open in the plugin's process for as long as that runs — a reader of the FIFO
    // would never see its end.
    _ = pb_spawn_close_from(&actions, 6)
    let argv = ([executable] + arguments).map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    var pid = pid_t()
    // In the run's process group, which ends with the host, however it ends.
    let spawned = pb_group_spawn(&pid, executable, &actions, argv, environ, 0)
    close(channelFD)
    close(reportFD)
    close(pipe.1)
    close(memory)
    guard spawned == 0 else {
      close(pipe.0)
      pb_channel_unmap(channel)
      throw IsolationError(
        "cannot start \(executable): \(String(cString: strerror(spawned))). Build it "
          + "(swift build), or set PATCHBAY_ISOLATED_CHILD to its path.")
    }
    let child = ChildProcess(pid: pid, channel: channel, reports: pipe.0)
    child.cpuSeconds = cpuSeconds
    let reaper = Thread { child.reap() }
    reaper.name = "patchbay-reaper"
    reaper.start()
    return child
  }

  /// A pipe whose write end only this process holds, for good: a child reading its read end
  /// sees end of file once the host is gone. (PR_SET_PDEATHSIG would end a child when the
  /// *thread* that started it ends, and restarts happen on passing threads.)
  private static let lifeline: Int32 = {
    var ends: (Int32, Int32) = (-1, -1)
    let made = withUnsafeMutableBytes(of: &ends) {
      Glibc.pipe($0.baseAddress!.assumingMemoryBound(to: Int32.self))
    }
    precondition(made == 0, "cannot create a pipe: \(String(cString: strerror(errno)))")
    _ = fcntl(ends.0, F_SETFD, FD_CLOEXEC)
    _ = fcntl(ends.1, F_SETFD, FD_CLOEXEC)
    return fcntl(ends.0, F_DUPFD_CLOEXEC, 10)
  }()

  /// [reaper thread] Waits for the process to end, then ends the channel and keeps why.
  private func reap() {
    var status: Int32 = 0
    var usage = rusage()
    while wait4(self.pid, &status, 0, &usage) < 0 && errno == EINTR {}
    pb_group_reaped()
    let report = self.readReport()
    let used =
      Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
      + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
    if report.isEmpty, self.cpuSeconds > 0, used >= Double(self.cpuSeconds) - 0.05 {
      self.ending =
        "its process used up its \(self.cpuSeconds) s of CPU time ([limits] "
        + "isolated-cpu-seconds), and the kernel ended it (\(Self.describe(status: status)))"
    } else {
      self.ending = report.isEmpty ? Self.describe(status: status) : report
    }
    pb_channel_end(self.channel)
    self.exited.signal()
    // The handler was set before `handoff` said so (releasing): reading it after is safe.
    if self.handoff.exchange(Handoff.ended, ordering: .acquiringAndReleasing) == Handoff.handlerSet
    {
      self.handler?(self, self.ending!)
    }
  }

  /// Runs `handler` on the reaper thread once the process ended (on a thread of its own, if
  /// it has already: the caller may be a job of the executor the handler joins). Once per
  /// process.
  package func whenEnded(_ handler: @escaping @Sendable (ChildProcess, String) -> Void) {
    self.handler = handler
    let (handed, _) = self.handoff.compareExchange(
      expected: Handoff.none, desired: Handoff.handlerSet, ordering: .acquiringAndReleasing)
    if !handed { Thread { handler(self, self.waitForExit()) }.start() }
  }

  /// What the process wrote to its report pipe (its crash handler's one line).
  private func readReport() -> String {
    _ = fcntl(self.reports, F_SETFL, fcntl(self.reports, F_GETFL) | O_NONBLOCK)
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while bytes.count < 65_536 {
      let count = read(self.reports, &buffer, buffer.count)
      guard count > 0 else { break }
      bytes += buffer[..<count]
    }
    close(self.reports)
    return String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
  }

  private static func describe(status: Int32) -> String {
    let signal = status & 0x7F
    if signal == 0 { return "its process exited with status \((status >> 8) & 0xFF)" }
    let name = strsignal(signal).map { String(cString: $0) } ?? "signal \(signal)"
    return "its process was ended by \(name) (signal \(signal))"
  }

  /// Waits until the process ended; why it did (its crash report, or its exit status).
  package func waitForExit() -> String {
    self.exited.wait()
    self.exited.signal()
    return self.ending ?? "its process ended"
  }

  /// Ends the process now (a hang, or the host is done with it).
  package func kill() {
    _ = Glibc.kill(self.pid, SIGKILL)
  }

  /// Whether the process ended.
  package var hasEnded: Bool { pb_channel_ended(self.channel) != 0 }

  /// Makes the call whose request is on the channel and waits for its reply, judging a hang
  /// as the app's watchdog does, but fairly on a busy machine: the call has hung once the
  /// process has used `seconds` of CPU time on it (a spin), or slept through `seconds` of
  /// wall-clock time (blocked: its main thread, which serves calls, neither running nor
  /// waiting for a core or the disk), or after 20 times that (at least 120 s) whatever it
  /// did. A process that is only starved of the CPU is waited for. `pb_channel_call`'s
  /// results: `PB_CHANNEL_OK` with `reply` set, `PB_CHANNEL_TIMEOUT` for a hang,
  /// `PB_CHANNEL_ENDED`.
  package func call(_ length: UInt32, seconds: Int, reply: inout UInt32) -> Int {
    let started = ContinuousClock.now
    let cpuBefore = self.cpuTimeUsed
    let slice: UInt64 = 250_000_000
    var result = Int(pb_channel_call(self.channel, length, slice, &reply))
    while result == PB_CHANNEL_TIMEOUT {
      let wall = started.duration(to: .now)
      let spun = self.cpuTimeUsed - cpuBefore >= Double(seconds)
      let blocked = wall >= .seconds(seconds) && !self.isWorking
      if spun || blocked || wall >= .seconds(max(20 * seconds, 120)) { return result }
      result = Int(pb_channel_await(self.channel, slice, &reply))
    }
    return result
  }

  /// Whether the process's main thread runs, waits for a core, or waits for the disk
  /// (`R` or `D` in /proc/PID/stat); false when it sleeps, or is gone.
  private var isWorking: Bool {
    let state = Self.statFields(of: self.pid)?.first
    return state == "R" || state == "D"
  }

  /// The fields of /proc/PID/stat after "pid (comm)": the state first, utime and stime at 11
  /// and 12; nil when the process is gone.
  private static func statFields(of pid: pid_t) -> [Substring]? {
    guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
      let end = text.lastIndex(of: ")")
    else { return nil }
    return text[text.index(after: end)...].split(separator: " ")
  }

  /// The CPU time the process has used (user and system), from /proc; 0 when it cannot be read.
  var cpuTimeUsed: Double { Self.cpuTime(of: self.pid) }

  /// The CPU time process `pid` has used (user and system), from /proc; 0 when it cannot be
  /// read.
  package static func cpuTime(of pid: pid_t) -> Double {
    // After "pid (comm)": state is field 3; utime and stime are fields 14 and 15.
    guard let fields = Self.statFields(of: pid), fields.count > 12,
      let user = Double(fields[11]), let system = Double(fields[12])
    else { return 0 }
    return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
  }

}

/// Why an isolated plugin's process could not do what was asked.
package struct IsolationError: Error, CustomStringConvertible {
  package let description: String
  /// The loader's reason, when the process could not load the plugin: the same line the
  /// loader gives in this process.
  package var loaderReason: String?
  /// Whether the process crashed or hung during the call (and was started again).
  package var isCrash = false
  package init(_ description: String, loaderReason: String? = nil, isCrash: Bool = false) {
    self.description = description
    self.loaderReason = loaderReason
    self.isCrash = isCrash
  }

}
