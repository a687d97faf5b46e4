import Foundation
import PatchbayLoader

/// The process an isolated plugin runs in, as DevTools shows it: its pid, its resident memory
/// and the CPU time it has used, read from /proc.
///
/// ```swift
/// feature.isolatedProcess   // IsolatedProcess(pid: 4242, residentBytes: 9_437_184, cpuSeconds: 0.31)
/// ```
package struct IsolatedProcess: Equatable, Sendable {
  package let pid: pid_t
  /// Resident memory (`/proc/PID/statm`'s second field, in bytes); 0 when it cannot be read.
  package let residentBytes: Int
  /// User and system CPU time, in seconds; 0 when it cannot be read.
  package let cpuSeconds: Double

  init(pid: pid_t) {
    self.pid = pid
    self.cpuSeconds = ChildProcess.cpuTime(of: pid)
    let statm = (try? String(contentsOfFile: "/proc/\(pid)/statm", encoding: .utf8)) ?? ""
    let pages = statm.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
    self.residentBytes = pages * Int(sysconf(Int32(_SC_PAGESIZE)))
  }
}

extension LoadedFeature {
  /// The process this feature's plugin runs in now, when it runs isolated; nil in this one.
  package var isolatedProcess: IsolatedProcess? {
    guard let code = self.code as? IsolatedFeature else { return nil }
    return IsolatedProcess(pid: code.plugin.processID)
  }
}

extension IsolatedPlugin {
  /// The pid of the process serving the plugin now (a restart changes it).
  var processID: pid_t { self.executor.sync { self.owned.child.pid } }
}
