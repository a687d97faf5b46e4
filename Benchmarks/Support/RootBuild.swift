import Foundation

/// What the benchmarks take from the root package's build: its `patchbay`, run as a user runs
/// it, and its plugins, copied so that one build makes many distinct plugins.
///
/// ```swift
/// let folder = try BenchmarkRun.pluginCopies(of: "libTestFixtureNumbered.so", count: 3, named: "swift")
/// // folder/libswift0.so … libswift2.so, and libPatchbaySDK.so linked beside them
/// BenchmarkRun.runPatchbay(["run", "\(folder.path)/app.toml", "--script", script])
/// ```
extension BenchmarkRun {
  /// Links the root build's `libPatchbaySDK.so` into `folder`: Swift plugins copied there find
  /// it beside them, as they do in the build folder.
  public static func linkSDK(into folder: URL) throws {
    try FileManager.default.createSymbolicLink(
      at: folder.appendingPathComponent("libPatchbaySDK.so"),
      withDestinationURL: rootBuild.appendingPathComponent("libPatchbaySDK.so"))
  }

  /// `count` copies of the root build's `library`, `lib<prefix><index>.so` in a new folder of
  /// this process's named for `prefix`, with the SDK linked beside them. The numbered
  /// fixtures (`libTestFixtureNumbered.so`, Swift; `libTestFixtureMisbehaving.so` copied as
  /// `numbered…`, C) export ids made from the file's name, so every copy is a plugin of its own.
  public static func pluginCopies(of library: String, count: Int, named prefix: String) throws
    -> URL
  {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "patchbay-copies-\(getpid())-\(prefix)")
    try? FileManager.default.removeItem(at: folder)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    try linkSDK(into: folder)
    for index in 0..<count {
      try FileManager.default.copyItem(
        at: rootBuild.appendingPathComponent(library),
        to: folder.appendingPathComponent("lib\(prefix)\(index).so"))
    }
    return folder
  }

  /// This process's environment without `LD_PRELOAD`: the benchmark runs under the malloc
  /// interposer, the `patchbay` it measures must not. Made once, then only read.
  nonisolated(unsafe) static let childEnvironment: [UnsafeMutablePointer<CChar>?] =
    ProcessInfo.processInfo.environment.filter { $0.key != "LD_PRELOAD" }
    .map { strdup("\($0.key)=\($0.value)") } + [nil]

  /// Runs `patchbay ARGUMENTS` (the root's build) to its exit, output discarded (its errors
  /// are not).
  public static func runPatchbay(_ arguments: [String]) {
    let executable = rootBuild.appendingPathComponent("patchbay").path
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    let argv = ([executable] + arguments).map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    var pid: pid_t = 0
    let spawned = childEnvironment.withUnsafeBufferPointer {
      posix_spawn(&pid, executable, &actions, nil, argv, $0.baseAddress)
    }
    guard spawned == 0 else {
      fatalError("cannot run \(executable) — \(buildHint)")
    }
    var status: Int32 = 0
    waitpid(pid, &status, 0)
    guard status == 0 else {
      fatalError("patchbay \(arguments.joined(separator: " ")) failed (\(status))")
    }
  }

  /// Isolated plugins run in the root build's `patchbay-isolated` (not beside the benchmark's
  /// executable), and not under this process's malloc interposer.
  public static func useRootIsolatedChild() {
    setenv("PATCHBAY_ISOLATED_CHILD", rootBuild.appendingPathComponent("patchbay-isolated").path, 1)
    unsetenv("LD_PRELOAD")
  }

  /// The processes this one started from `patchbay-isolated` that still run (not zombies).
  public static func isolatedChildren() -> [pid_t] {
    let me = getpid()
    let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
    return entries.compactMap { Int32($0) }.filter { pid in
      guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
        let close = stat.lastIndex(of: ")")
      else { return false }
      let fields = stat[stat.index(after: close)...].split(separator: " ")
      return fields.count > 2 && Int32(fields[1]) == me && fields[0] != "Z"
        && stat.contains("(patchbay-isolat")
    }
  }

  /// The memory process `pid` alone holds (its private pages, resident: what ending it would
  /// free), from /proc/<pid>/smaps_rollup; 0 when it is gone. Its resident set would also count
  /// the shared libraries' pages every process maps.
  public static func privateBytes(of pid: pid_t) -> Int {
    let rollup = (try? String(contentsOfFile: "/proc/\(pid)/smaps_rollup", encoding: .utf8)) ?? ""
    let kilobytes = rollup.split(separator: "\n").filter {
      $0.hasPrefix("Private_Clean:") || $0.hasPrefix("Private_Dirty:")
    }.compactMap { $0.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first }
    return kilobytes.compactMap { Int($0) }.reduce(0, +) * 1_024
  }

  /// The resident memory of process `pid`, from /proc/<pid>/statm; 0 when it is gone.
  public static func residentBytes(of pid: pid_t) -> Int {
    let statm = (try? String(contentsOfFile: "/proc/\(pid)/statm", encoding: .utf8)) ?? ""
    let pages = statm.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
    return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
  }
}
