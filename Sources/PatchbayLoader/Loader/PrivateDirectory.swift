import Foundation

/// A folder only this user can write, made for this process: where generation copies go.
///
/// ```swift
/// let folder = try PrivateDirectory.forThisProcess()
/// // $XDG_RUNTIME_DIR/patchbay-4242-k3J9aQ, else ~/.cache/patchbay/patchbay-4242-k3J9aQ,
/// // else /tmp/patchbay-4242-k3J9aQ: made by mkdtemp, mode 0700
/// try PrivateDirectory.check(folder)   // still ours and 0700? else a one-line reason
/// ```
///
/// A copy of a plugin is code the user runs. A predictable folder in a shared place
/// (`/tmp/patchbay-<pid>`) could be made first by another local user. That user could then plant
/// a library the copy's `$ORIGIN` finds, or rename a file over the copy before `dlopen`. So the
/// folder comes from `mkdtemp`, which makes a new folder of mode 0700 with a random name or
/// fails. Before each copy the folder is checked again: a real folder (not a link), owned by
/// this user, with no group or other permissions. Parents mounted `noexec` are skipped, since
/// `dlopen` could not map a copy there.
///
/// The folder is removed when the process exits (`exit`, not a crash). ``removeStale(in:)``
/// removes those that processes which are gone left behind, in every candidate parent, before
/// the first folder is made.
enum PrivateDirectory {
  /// Why a folder is not private, in one line.
  struct NotPrivate: Error, CustomStringConvertible, Equatable {
    let description: String
  }

  /// The prefix of every folder made here: `patchbay-<pid>-XXXXXX`.
  static let prefix = "patchbay-"

  /// This process's folder: made (and stale ones cleaned) on the first call. A failure is
  /// for good: every candidate parent refused it.
  static func forThisProcess() throws(NotPrivate) -> URL {
    try Self.made.get()
  }

  /// The folder of this process, made on first use (a static's initializer runs once, whichever
  /// thread comes first).
  private static let made: Result<URL, NotPrivate> = {
    var reasons: [String] = []
    let parents = Self.candidates()
    // Copies of earlier versions went to $TMPDIR/patchbay-<pid>: those are cleaned too.
    for parent in parents { Self.removeStale(in: parent) }
    for parent in parents {
      do {
        let folder = try Self.make(in: parent)
        Self.removeAtExit(folder)
        return .success(folder)
      } catch {
        reasons.append("\(error)")
      }
    }
    return .failure(
      NotPrivate(
        description: "no private folder for plugin copies: \(reasons.joined(separator: "; ")). "
          + "Set XDG_RUNTIME_DIR or TMPDIR to a folder of yours on an exec-mounted file system."))
  }()

  /// Where to make it, in order: `$XDG_RUNTIME_DIR`, the user's cache folder
  /// (`$XDG_CACHE_HOME/patchbay` or `~/.cache/patchbay`, made 0700), `$TMPDIR`, `/tmp`.
  static func candidates() -> [URL] {
    let environment = ProcessInfo.processInfo.environment
    var parents: [URL] = []
    if let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty,
      (try? Self.check(URL(fileURLWithPath: runtime))) != nil
    {
      parents.append(URL(fileURLWithPath: runtime))
    }
    let cacheHome =
      environment["XDG_CACHE_HOME"].map { URL(fileURLWithPath: $0) }
      ?? FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".cache")
    let cache = cacheHome.appendingPathComponent("patchbay")
    if mkdir(cacheHome.path, 0o700) == 0 || errno == EEXIST,
      mkdir(cache.path, 0o700) == 0
        || errno == EEXIST, (try? Self.check(cache)) != nil
    {
      parents.append(cache)
    }
    parents.append(FileManager.default.temporaryDirectory)
    parents.append(URL(fileURLWithPath: "/tmp"))
    var seen: Set<String> = []
    return parents.filter {
      !Self.isNoExec($0) && seen.insert($0.standardizedFileURL.path).inserted
    }
  }

  /// Makes `patchbay-<pid>-XXXXXX` in `parent` with `mkdtemp`, and checks it.
  static func make(in parent: URL) throws -> URL {
    var template = Array(
      parent.appendingPathComponent(
        "\(Self.prefix)\(ProcessInfo.processInfo.processIdentifier)-XXXXXX"
      ).path.utf8CString)
    guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
      throw NotPrivate(
        description: "\(parent.path): cannot make a folder (\(String(cString: strerror(errno))))")
    }
    let folder = URL(fileURLWithPath: String(cString: made), isDirectory: true)
    try Self.check(folder)
    return folder
  }

  /// Refuses a folder that another user could write, or that is not a real folder.
  static func check(_ folder: URL) throws(NotPrivate) {
    var info = stat()
    guard lstat(folder.path, &info) == 0 else {
      throw NotPrivate(
        description: "\(folder.path): \(String(cString: strerror(errno))); it is not usable")
    }
    guard info.st_mode & S_IFMT == S_IFDIR else {
      throw NotPrivate(
        description:
          "\(folder.path) is not a folder (a link or a file); refusing to put plugin copies there")
    }
    guard info.st_uid == geteuid() else {
      throw NotPrivate(
        description:
          "\(folder.path) belongs to uid \(info.st_uid), not to this user (\(geteuid())); "
          + "refusing to put plugin copies there. Remove it, or set TMPDIR to a folder of yours.")
    }
    guard info.st_mode & 0o077 == 0 else {
      throw NotPrivate(
        description: "\(folder.path) has mode \(String(info.st_mode & 0o777, radix: 8)), open to "
          + "others; refusing to put plugin copies there. chmod 700 it, or remove it.")
    }
  }

  /// Whether `folder` is on a file system mounted `noexec` (`dlopen` cannot map from it).
  static func isNoExec(_ folder: URL) -> Bool {
    var info = statvfs()
    guard statvfs(folder.path, &info) == 0 else { return false }
    return info.f_flag & 8 != 0  // ST_NOEXEC (Glibc does not export the constant)
  }

  /// Removes the folders of processes that are gone, in `parent`: this user's
  /// `patchbay-<pid>-XXXXXX` and the old `patchbay-<pid>`, whose pid no longer runs.
  @discardableResult
  static func removeStale(in parent: URL) -> [String] {
    guard let names = try? FileManager.default.contentsOfDirectory(atPath: parent.path) else {
      return []
    }
    var removed: [String] = []
    for name in names where name.hasPrefix(Self.prefix) {
      let rest = name.dropFirst(Self.prefix.count)
      guard let pid = Int32(rest.split(separator: "-").first ?? ""), pid > 0,
        pid != getpid(), kill(pid, 0) != 0, errno == ESRCH
      else { continue }
      let folder = parent.appendingPathComponent(name)
      var info = stat()
      guard lstat(folder.path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR,
        info.st_uid == geteuid()
      else { continue }
      if (try? FileManager.default.removeItem(at: folder)) != nil { removed.append(folder.path) }
    }
    return removed
  }

  /// The folder `atexit` removes.
  nonisolated(unsafe) private static var removedAtExit: UnsafeMutablePointer<CChar>?

  private static func removeAtExit(_ folder: URL) {
    Self.removedAtExit = strdup(folder.path)
    atexit {
      guard let path = PrivateDirectory.removedAtExit else { return }
      try? FileManager.default.removeItem(atPath: String(cString: path))
    }
  }
}
