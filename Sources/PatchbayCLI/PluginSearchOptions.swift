import ArgumentParser
import Foundation
import PatchbayConfig
import PatchbayHost
import PatchbayIsolation
import PatchbayLoader

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

  @Option(
    help: ArgumentHelp(
      "Run this plugin in a process of its own: a crash or a hang in it costs a restart, not "
        + "the app (repeatable; all: every plugin).", valueName: "name"))
  var isolate: [String] = []

  /// --plugin-path folders, then $PATCHBAY_PLUGIN_PATH, then this executable's folder.
  var searchPaths: [String] {
    let environment =
      ProcessInfo.processInfo.environment["PATCHBAY_PLUGIN_PATH"]?
      .split(separator: ":").map(String.init) ?? []
    return self.pluginPaths + environment + [executableDirectory()]
  }

  var loader: PluginLoader { self.configured(PluginLoader(searchPaths: self.searchPaths)) }

  /// The loader of `config`, searching these folders too, with these options.
  func loader(for config: AppConfig) -> PluginLoader {
    self.configured(config.loader(extraSearchPaths: self.searchPaths))
  }

  private func configured(_ loader: PluginLoader) -> PluginLoader {
    var loader = loader
    loader.allowsInsecurePaths = self.allowInsecurePluginPath
    loader.isolated.formUnion(self.isolate)
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

/// The folder holding the running executable.
func executableDirectory() -> String {
  let path =
    (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
    ?? CommandLine.arguments[0]
  return URL(fileURLWithPath: path).deletingLastPathComponent().path
}
