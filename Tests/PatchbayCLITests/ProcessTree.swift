import Foundation

/// The processes below one, read from /proc: what the tests that kill a command check it
/// left behind.
///
/// ```swift
/// let below = ProcessTree.descendants(of: parent)      // [(pid, group, command)]
/// kill(parent, SIGKILL)
/// ProcessTree.running(below)                          // [] once all have ended
/// ```
enum ProcessTree {
  struct Entry: Equatable {
    let pid: pid_t
    let parent: pid_t
    let group: pid_t
    /// `R`, `S`, … `Z` for a zombie: ended, not yet waited for.
    let state: Character
    /// When it started, in clock ticks since boot: with the pid, names it even after the pid
    /// is reused.
    let started: UInt64
    let command: String
  }

  /// Every process this one can see.
  static func all() -> [Entry] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
    return names.compactMap { name in
      guard let pid = pid_t(name) else { return nil }
      return self.entry(pid)
    }
  }

  /// `pid`'s entry; nil once it is gone.
  static func entry(_ pid: pid_t) -> Entry? {
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
      let open = stat.firstIndex(of: "("), let close = stat.lastIndex(of: ")")
    else { return nil }
    // "pid (comm) state ppid pgrp …"
    let fields = stat[stat.index(close, offsetBy: 2)...].split(separator: " ")
    guard fields.count > 19, let state = fields[0].first, let parent = pid_t(fields[1]),
      let group = pid_t(fields[2]), let started = UInt64(fields[19])
    else { return nil }
    let arguments = (try? Data(contentsOf: URL(fileURLWithPath: "/proc/\(pid)/cmdline")))
      .map { String(decoding: $0, as: UTF8.self).replacingOccurrences(of: "\0", with: " ") }
    return Entry(
      pid: pid, parent: parent, group: group, state: state, started: started,
      command: arguments ?? String(stat[stat.index(after: open)..<close]))
  }

  /// The processes below `pid`: its children, theirs, and so on.
  static func descendants(of pid: pid_t) -> [Entry] {
    let entries = self.all()
    var found: [Entry] = []
    var parents: Set<pid_t> = [pid]
    while true {
      let next = entries.filter { parents.contains($0.parent) && !found.contains($0) }
      guard !next.isEmpty else { return found }
      found += next
      parents = Set(next.map(\.pid))
    }
  }

  /// Those of `entries` still running (a zombie has ended: it only waits to be reaped).
  static func running(_ entries: [Entry]) -> [Entry] {
    entries.compactMap { before in
      self.entry(before.pid).flatMap { $0.started == before.started && $0.state != "Z" ? $0 : nil }
    }
  }
}
