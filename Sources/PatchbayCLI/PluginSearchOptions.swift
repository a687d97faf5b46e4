import ArgumentParser
import Foundation
import PatchbayConfig
import PatchbayFunctions
import PatchbayHost
import PatchbayIsolation
import PatchbayLV2Feature
import PatchbayLoader
import PatchbayWasm

/// Where to look for plugins given by name.
struct PluginSearchOptions: ParsableArguments {
  @Option(
    name: .customLong("plugin-path"),
    help: ArgumentHelp(
      "A folder to search for plugins given by name (repeatable).", valueName: "dir")
  )
  var pluginPaths: [String] = []

  @Flag(
    help: """
      Load plugins that others could have written (a file or folder writable by group or \
      others, or owned by another user). Without it they are refused.
      """)
  var allowInsecurePluginPath = false

  /// --plugin-path folders, then $PATCHBAY_PLUGIN_PATH, then this executable's folder.
  var searchPaths: [String] {
    let environment =
      ProcessInfo.processInfo.environment["PATCHBAY_PLUGIN_PATH"]?
      .split(separator: ":").map(String.init) ?? []
    return self.pluginPaths + environment + [executableDirectory()]
  }

  var loader: PluginLoader { self.configured(PluginLoader(searchPaths: self.searchPaths)) }

  /// The loader of `config`, searching these folders too, with these options and the plugins
  /// `isolation` names in processes of their own; a usage error (exit 2) when `--isolate`
  /// names a plugin the config does not load.
  func loader(for config: AppConfig, isolating isolation: IsolateOption) throws -> PluginLoader {
    try isolation.check(against: config)
    var loader = self.configured(config.loader(extraSearchPaths: self.searchPaths))
    loader.isolated.formUnion(isolation.isolate)
    return loader
  }

  private func configured(_ loader: PluginLoader) -> PluginLoader {
    var loader = loader
    loader.allowsInsecurePaths = self.allowInsecurePluginPath
    if loader.schemes[LV2FeaturePlugin.scheme] == nil { LV2FeaturePlugin.install(into: &loader) }
    if loader.fileKinds[WasmPlugin.fileExtension] == nil { WasmPlugin.install(into: &loader) }
    if loader.isolator == nil {
      loader.isolated.formUnion(IsolationOptions.fromEnvironment)
      loader.isolator = ProcessIsolator(options: IsolationOptions())
    }
    return loader
  }

  /// Loads `plugin` (a name or a path), or fails the command with the loader's one line.
  func load(_ plugin: String) throws -> LoadedPlugin {
    do {
      return try self.loader.load(plugin)
    } catch {
      throw CommandFailure(error.description)
    }
  }
}

/// `--isolate NAME`, for the commands that run an app (`run`, `render`, `replay`, `check`):
/// which of its plugins run in processes of their own. `validate` has `--isolated` instead,
/// for the one plugin it checks.
struct IsolateOption: ParsableArguments {
  @Option(
    help: ArgumentHelp(
      "Run this plugin in a process of its own: a crash or a hang in it costs a restart, not "
        + "the app (repeatable; all: every plugin).", valueName: "name"))
  var isolate: [String] = []

  /// Every `--isolate` name is `all`, or names a plugin of `config` as `load` does (its name,
  /// path or file name): a misspelled one would run the plugin unisolated.
  func check(against config: AppConfig) throws {
    let names = config.plugins.flatMap {
      [$0.reference, PluginLoader.pluginName(ofFile: $0.reference)]
    }
    for name in self.isolate where name != "all" && !names.contains(name) {
      let loaded = config.plugins.map(\.reference).joined(separator: ", ")
      throw ValidationError(
        "--isolate \(name): \(config.file) loads no plugin named '\(name)'.\(suggestion(for: name, among: names)) "
          + "It loads: \(loaded); or write --isolate all.")
    }
  }
}

/// The folder holding the running executable.
func executableDirectory() -> String {
  let path =
    (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
    ?? CommandLine.arguments[0]
  return URL(fileURLWithPath: path).deletingLastPathComponent().path
}
