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
    try BenchmarkRun.linkSDK(into: folder)
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
        BenchmarkRun.runPatchbay(["run", app.config, "--script", app.script])
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
      BenchmarkRun.runPatchbay(["run", demo, "--script", app.script])
    }
  }
}
