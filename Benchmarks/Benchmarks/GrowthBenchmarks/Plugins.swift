import Benchmark
import BenchmarkSupport
import Foundation
import PatchbayConfig
import PatchbayHost
import PatchbayLoader

/// A language a plugin is written in, and the root build's fixture that makes distinct plugins
/// of it by copying: each copy exports a counter under an id made from its file name.
enum PluginLanguage: String, CaseIterable {
  case swift = "Swift"
  case c = "C"

  var fixture: String {
    switch self {
    case .swift: "libTestFixtureNumbered.so"
    case .c: "libTestFixtureMisbehaving.so"
    }
  }

  /// What each copy is called: `lib<prefix><index>.so`, which the fixture reads its ids from.
  var prefix: String {
    switch self {
    case .swift: "swift"
    case .c: "numbered"
    }
  }

  /// The action each feature is sent: Tally's `increment`, the C fixture's `noop`.
  var action: String {
    switch self {
    case .swift: "increment"
    case .c: "noop"
    }
  }
}

/// An app of `count` plugins in `language`, one feature each: `f0` the root, the others its
/// children. Written to `<folder>/app.toml` beside the copies, with `render.script` (the first
/// screen) for a cold start. The folder goes when the app does: at 500 Swift plugins it holds
/// 1.3 GB.
final class PluginsApp: Sendable {
  let folder: URL
  let config: String
  let script: String

  /// `isolated`: every plugin in a process of its own (`isolate = ["all"]`).
  init(_ language: PluginLanguage, count: Int, isolated: Bool = false) throws {
    let prefix = "\(language.prefix)\(count)\(isolated ? "i" : "")-"
    let folder = try BenchmarkRun.pluginCopies(of: language.fixture, count: count, named: prefix)
    let names = (0..<count).map { "\(prefix)\($0)" }
    var text = """
      [app]
      root = "f0"

      [plugins]
      search-paths = [\(AppConfig.quoted(folder.path))]
      isolate = [\(isolated ? "\"all\"" : "")]
      load = [\(names.map(AppConfig.quoted).joined(separator: ", "))]

      """
    for (index, name) in names.enumerated() {
      text += """

        [[feature]]
        key = "f\(index)"
        id = "dev.patchbay.fixture.\(name)"
        \(index == 0 ? "" : "parent = \"f0\"")

        """
    }
    self.folder = folder
    self.config = folder.appendingPathComponent("app.toml").path
    self.script = folder.appendingPathComponent("render.script").path
    try text.write(toFile: self.config, atomically: true, encoding: .utf8)
    try "render\n".write(toFile: self.script, atomically: true, encoding: .utf8)
  }

  deinit { try? FileManager.default.removeItem(at: self.folder) }

  /// The app, loaded in this process (the host loads copies of its own: this folder can go).
  func load() throws -> AppRuntime {
    let config = try AppConfig(contentsOf: self.config)
    let loader = config.loader()
    return try AppRuntime(
      config: config, registry: try config.loadPlugins(with: loader), loader: loader)
  }
}

let pluginSizes = [1, 10, 100, 500]

let pluginBenchmarks: @Sendable () -> Void = {
  // A send to the root feature while P plugins are loaded: nothing a send does should look at
  // the others.
  Growth("plugins: send to one feature, Swift plugins loaded", per: "plugins", sizes: pluginSizes)
    .register {
      try PluginsApp(.swift, count: $0).load()
    } measure: { benchmark, app in
      try app.perform {
        for _ in benchmark.scaledIterations { try app.send("f0", "increment") }
      }
    }

  // `patchbay run` from process start to its first screen drawn, with every plugin's feature
  // on it.
  Growth("plugins: cold start to first screen, Swift plugins", per: "plugins", sizes: pluginSizes)
    .register(
      configuration: .init(
        metrics: [.wallClock], timeUnits: .milliseconds, warmupIterations: 1,
        maxDuration: .seconds(10), maxIterations: 20)
    ) {
      try PluginsApp(.swift, count: $0)
    } measure: { benchmark, app in
      for _ in benchmark.scaledIterations {
        BenchmarkRun.runPatchbay(["run", app.config, "--script", app.script])
      }
    }

  // What a loaded plugin costs in resident memory, with its one instance: the change in this
  // process's resident set over loading P of them, ÷ P. Swift plugins share the SDK's library
  // (libPatchbaySDK.so), which the first one maps for all.
  for language in PluginLanguage.allCases {
    Growth(
      "plugins: resident memory per \(language.rawValue) plugin", per: "plugins",
      sizes: pluginSizes
    )
    .registerFigure("bytes per plugin") { count in
      let made = try PluginsApp(language, count: count)
      let before = residentBytes()
      let app = try made.load()
      try app.send("f0", language.action)
      let after = residentBytes()
      withExtendedLifetime(app) {}
      return (after - before) / count
    }
  }
}
