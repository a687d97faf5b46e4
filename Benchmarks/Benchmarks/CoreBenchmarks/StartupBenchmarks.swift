import Benchmark
import BenchmarkSupport
import Foundation

/// An app of ten Swift plugins, each a copy of the root build's `libTestFixtureNumbered.so` (which
/// exports Counter under an id taken from its file name): the root and nine children, so the
/// first screen renders all ten.
///
/// ```text
/// $TMPDIR/patchbay-startup-<pid>-<label>/libStartup0.so … libStartup9.so, app.toml,
///   render.script, demo.toml (host-config/app.toml with the root build's plugins)
/// ```
///
/// Each build gets a folder of its own, named by `label`: two builds whose folders share a
/// name (`…/release` and another `…/release`) must not overwrite each other's copies.
func startupApp(from build: URL, label: String) -> (config: String, script: String) {
  let rootBuild = BenchmarkRun.rootBuild
  let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
    "patchbay-startup-\(ProcessInfo.processInfo.processIdentifier)-\(label)")
  do {
    try? FileManager.default.removeItem(at: folder)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    try linkSDK(into: folder, from: rootBuild)
    var config = """
      [app]
      root = "f0"

      [plugins]
      search-paths = ["."]
      load = [\((0..<10).map { "\"Startup\($0)\"" }.joined(separator: ", "))]

      """
    for index in 0..<10 {
      try FileManager.default.copyItem(
        at: build.appendingPathComponent("libTestFixtureNumbered.so"),
        to: folder.appendingPathComponent("libStartup\(index).so"))
      config += """

        [[feature]]
        key = "f\(index)"
        id = "dev.patchbay.fixture.startup\(index)"
        \(index == 0 ? "" : "parent = \"f0\"")

        """
    }
    try config.write(
      to: folder.appendingPathComponent("app.toml"), atomically: true, encoding: .utf8)
    // The demo app, with the root build's plugins.
    let demo = try String(
      contentsOf: repositoryRoot.appendingPathComponent("host-config/app.toml"), encoding: .utf8)
    try demo.replacingOccurrences(of: "\"../.build/debug\"", with: "\"\(rootBuild.path)\"")
      .write(to: folder.appendingPathComponent("demo.toml"), atomically: true, encoding: .utf8)
    try "render\n".write(
      to: folder.appendingPathComponent("render.script"), atomically: true, encoding: .utf8)
  } catch {
    fatalError("\(error) — \(BenchmarkRun.buildHint)")
  }
  return (
    folder.appendingPathComponent("app.toml").path,
    folder.appendingPathComponent("render.script").path
  )
}

/// The startup app of this checkout's build, for its demo.toml.
let rootStartupApp = startupApp(from: BenchmarkRun.rootBuild, label: "demo")

/// This process's environment without `LD_PRELOAD`: the benchmark runs under the malloc
/// interposer, the `patchbay` it measures must not. Made once, then only read.
nonisolated(unsafe) let childEnvironment: [UnsafeMutablePointer<CChar>?] =
  ProcessInfo.processInfo.environment.filter { $0.key != "LD_PRELOAD" }
  .map { strdup("\($0.key)=\($0.value)") } + [nil]

/// Runs `patchbay ARGUMENTS` (the root's build) to its exit, output discarded (its errors are
/// not).
func runPatchbay(_ arguments: [String]) {
  let executable = BenchmarkRun.rootBuild.appendingPathComponent("patchbay").path
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
    fatalError("cannot run \(executable) — \(BenchmarkRun.buildHint)")
  }
  var status: Int32 = 0
  waitpid(pid, &status, 0)
  guard status == 0 else {
    fatalError("patchbay \(arguments.joined(separator: " ")) failed (\(status))")
  }
}

let startupBenchmarks: @Sendable () -> Void = {
  for build in pluginBuilds {
    // Made here, before the measurements: copying the plugins is not what they measure.
    let app = startupApp(
      from: build.folder, label: build.name.replacingOccurrences(of: " ", with: "-"))
    Benchmark(
      "startup: process start to first screen, 10 Swift plugins (patchbay run, \(build.name))",
      configuration: .init(
        metrics: [.wallClock], timeUnits: .milliseconds, warmupIterations: 2,
        maxDuration: .seconds(20), maxIterations: 40)
    ) { benchmark in
      for _ in benchmark.scaledIterations {
        runPatchbay(["run", app.config, "--script", app.script])
      }
    }
  }

  Benchmark(
    "startup: process start to first screen, the demo app (4 plugins)",
    configuration: .init(
      metrics: [.wallClock], timeUnits: .milliseconds, warmupIterations: 2,
      maxDuration: .seconds(20), maxIterations: 40)
  ) { benchmark in
    let app = rootStartupApp
    let demo = URL(fileURLWithPath: app.config).deletingLastPathComponent().appendingPathComponent(
      "demo.toml"
    ).path
    for _ in benchmark.scaledIterations {
      runPatchbay(["run", demo, "--script", app.script])
    }
  }
}
