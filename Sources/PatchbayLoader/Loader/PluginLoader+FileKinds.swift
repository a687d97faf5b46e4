import Foundation
import PatchbayDigest

/// Plugin files that are not shared libraries (``PluginFileKind``): found as a library is,
/// trusted and pinned as a library is, then read once and handed to their kind.
extension PluginLoader {
  /// The kind of plugin file `nameOrPath` names by its extension, if one is installed.
  func fileKind(of nameOrPath: String) -> (any PluginFileKind)? {
    let suffix = URL(fileURLWithPath: nameOrPath).pathExtension
    return suffix.isEmpty ? nil : self.fileKinds[suffix]
  }

  /// Loads `nameOrPath` (a path, or a file name looked for in the search paths, then here)
  /// as a plugin of `kind`. It runs in this process whatever `[plugins] isolate` says: its
  /// kind confines it.
  func load(_ nameOrPath: String, as kind: any PluginFileKind) throws(PluginLoadError)
    -> LoadedPlugin
  {
    let file = self.locateFile(nameOrPath)
    guard FileManager.default.fileExists(atPath: file) else {
      throw PluginLoadError(
        file: nameOrPath,
        "file not found. Check the path, or build the plugin first (make wasm-plugins).")
    }
    if !self.allowsInsecurePaths, let problem = PluginFileTrust.problem(with: file) {
      throw PluginLoadError(file: file, problem)
    }
    guard let data = FileManager.default.contents(atPath: file) else {
      throw PluginLoadError(file: file, "cannot be read. Check its permissions.")
    }
    let bytes = [UInt8](data)
    if let pinned = self.pins[file] {
      try Self.check(SHA256.hex(of: bytes), pinned: pinned, file: file)
    }
    let plugin = try kind.load(
      file: file, bytes: bytes, generation: ProcessLoads.nextGeneration(of: file),
      granted: self.sandboxIsListed ? Set(self.sandboxAllows[file] ?? []) : nil)
    plugin.fileIdentity = FileIdentity(path: file)
    return plugin
  }

  /// Loads `file` granted what `[sandbox]` grants it or, when it names the file not, what it
  /// grants the file at `previous`: a swap's new build, from any folder, may do what the code
  /// it replaces could.
  public func load(_ file: String, grantedAs previous: String?) throws(PluginLoadError)
    -> LoadedPlugin
  {
    var loader = self
    if loader.sandboxAllows[file] == nil, let previous {
      loader.sandboxAllows[file] = loader.sandboxAllows[previous]
    }
    return try loader.load(file)
  }

  /// Refuses `file` when its SHA-256, `hash`, is not the one host-config pins.
  static func check(_ hash: String, pinned: String, file: String) throws(PluginLoadError) {
    guard hash != pinned else { return }
    throw PluginLoadError(
      file: file,
      "has SHA-256 \(hash), but host-config pins \(pinned): the file changed since it was "
        + "pinned. If the change is yours, pin the new hash (patchbay inspect prints it); "
        + "otherwise do not run it.")
  }

  /// A path as given; a bare file name from the first search path that has it, else as given.
  private func locateFile(_ nameOrPath: String) -> String {
    guard !nameOrPath.contains("/") else { return nameOrPath }
    for directory in self.searchPaths {
      let path = URL(fileURLWithPath: directory).appendingPathComponent(nameOrPath).path
      if FileManager.default.fileExists(atPath: path) { return path }
    }
    return nameOrPath
  }
}
