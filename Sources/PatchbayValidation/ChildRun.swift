import CPatchbayProcessGroup
import Foundation
import PatchbayIsolation

#if canImport(Glibc)
  import Glibc
#endif

/// One run of a child process, as ``ChildRunner`` makes it: started into the run's process
/// group (so that it ends with the run, SIGKILL included: `patchbay_process_group.h`), its
/// standard output and error read to the end, and ended when it outruns its limits.
///
/// ```swift
/// let run = ChildRun.run("/usr/bin/patchbay", ["validate", "--child", "render", "x.so"],
///                        cpuSeconds: 30, wallSeconds: 120)
/// run.ending   // .exited(0), .signaled(SIGSEGV), .outranCPU or .outranWallClock
/// ```
package struct ChildRun {
  package enum Ending: Equatable {
    case exited(Int32)
    case signaled(Int32)
    /// It used `cpuSeconds` of CPU time without finishing, and was ended.
    case outranCPU
    /// It did not finish in `wallSeconds` (waiting, not working), and was ended.
    case outranWallClock
    /// It could not be started: the error posix_spawn gave.
    case notStarted(Int32)
  }

  package var ending: Ending
  package var stdout: String
  package var stderr: String

  /// Runs `executable` with `arguments` to its end. The limits are judged every 50 ms:
  /// `cpuSeconds` on the CPU time it used (a busy machine slows a test, but does not make it
  /// use more), `wallSeconds` on the clock.
  package static func run(
    _ executable: String, _ arguments: [String], cpuSeconds: Double, wallSeconds: Double
  ) -> ChildRun {
    var output: [Int32] = [-1, -1]
    var errors: [Int32] = [-1, -1]
    guard Self.pipe(&output), Self.pipe(&errors) else {
      return ChildRun(ending: .notStarted(errno), stdout: "", stderr: "")
    }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_adddup2(&actions, output[1], 1)
    posix_spawn_file_actions_adddup2(&actions, errors[1], 2)
    let argv = ([executable] + arguments).map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    var pid = pid_t()
    var spawned: Int32
    var tries = 0
    repeat {
      spawned = pb_group_spawn(
        &pid, executable, &actions, argv, environ, Int32(PB_GROUP_DIE_WITH_PARENT))
      tries += 1
      // "Text file busy": the executable is open for writing in a process another thread of
      // this one forked just then (a script written a moment ago, a child rebuilt beside the
      // run), whose copy of the descriptor closes at its own exec, within milliseconds.
      guard spawned == ETXTBSY, tries < 100 else { break }
      usleep(10_000)
    } while true
    close(output[1])
    close(errors[1])
    guard spawned == 0 else {
      close(output[0])
      close(errors[0])
      return ChildRun(ending: .notStarted(spawned), stdout: "", stderr: "")
    }
    var run = ChildRun(ending: .exited(0), stdout: "", stderr: "")
    var streams = [Stream(descriptor: output[0]), Stream(descriptor: errors[0])]
    let start = ContinuousClock.now
    var exitedAt: ContinuousClock.Instant?
    var killed: Ending?
    while true {
      Stream.read(&streams, waiting: 50)
      if exitedAt == nil {
        var status: Int32 = 0
        if waitpid(pid, &status, WNOHANG) == pid {
          exitedAt = .now
          pb_group_reaped()
          let signal = status & 0x7F
          run.ending = killed ?? (signal == 0 ? .exited((status >> 8) & 0xFF) : .signaled(signal))
        } else if killed == nil {
          if ChildProcess.cpuTime(of: pid) >= cpuSeconds {
            killed = .outranCPU
          } else if start.duration(to: .now) >= .seconds(wallSeconds) {
            killed = .outranWallClock
          }
          if killed != nil { kill(pid, SIGKILL) }
        }
      }
      // A process the child started may hold its pipes open a moment longer (it ends when
      // the child does): what is left is read for a second at most.
      if let exitedAt, streams.allSatisfy(\.ended) || exitedAt.duration(to: .now) > .seconds(1) {
        break
      }
    }
    streams.forEach { close($0.descriptor) }
    run.stdout = String(decoding: streams[0].bytes, as: UTF8.self)
    run.stderr = String(decoding: streams[1].bytes, as: UTF8.self)
    return run
  }

  /// A pipe, both ends closed on exec (the child gets its copies through dup2).
  private static func pipe(_ ends: inout [Int32]) -> Bool {
    guard Glibc.pipe(&ends) == 0 else { return false }
    ends.forEach { _ = fcntl($0, F_SETFD, FD_CLOEXEC) }
    return true
  }

  /// A pipe's read end and what came out of it.
  private struct Stream {
    let descriptor: Int32
    var bytes: [UInt8] = []
    var ended = false

    /// Waits up to `milliseconds` for any stream to have bytes, and reads what there is.
    static func read(_ streams: inout [Stream], waiting milliseconds: Int32) {
      var polled = streams.map {
        pollfd(fd: $0.ended ? -1 : $0.descriptor, events: Int16(POLLIN), revents: 0)
      }
      guard poll(&polled, nfds_t(polled.count), milliseconds) > 0 else { return }
      var buffer = [UInt8](repeating: 0, count: 65_536)
      for index in streams.indices where polled[index].revents != 0 {
        let count = Glibc.read(streams[index].descriptor, &buffer, buffer.count)
        if count > 0 {
          streams[index].bytes += buffer[..<count]
        } else if count == 0 || errno != EINTR {
          streams[index].ended = true
        }
      }
    }
  }
}
