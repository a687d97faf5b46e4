import ArgumentParser
import Foundation
import PatchbayHost

/// Where to look for plugins given by name.
struct PluginSearchOptions: ParsableArguments {
  @Option(
    name: .customLong("plugin-path"),
    help: ArgumentHelp(
      "A folder to search for plugins given by name (repeatable).", valueName: "dir")
  )
  var pluginPaths: [String] = []

  /// --plugin-path folders, then $PATCHBAY_PLUGIN_PATH, then this executable's folder.
  var searchPaths: [String] {
    let environment =
      ProcessInfo.processInfo.environment["PATCHBAY_PLUGIN_PATH"]?
      .split(separator: ":").map(String.init) ?? []
    return self.pluginPaths + environment + [executableDirectory()]
  }

  var loader: PluginLoader { PluginLoader(searchPaths: self.searchPaths) }

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
