import Foundation

/// Loads a plugin in a process of its own instead of this one: the loader hands it the files
/// its ``PluginLoader/isolated`` names. PatchbayIsolation's `ProcessIsolator` is the one the
/// host uses; the loader only decides which files go to it.
///
/// ```swift
/// var loader = PluginLoader(searchPaths: [".build/debug"])
/// loader.isolated = ["Synth"]
/// loader.isolator = ProcessIsolator(limits: .standard)
/// let synth = try loader.load("Synth")      // runs in a child process; the same LoadedPlugin API
/// ```
package protocol PluginIsolator: Sendable {
  /// The plugin in `file`, loaded in a process of its own with `loader`'s checks (trust,
  /// pins); its features' code is a ``FeatureCode`` that calls across. nil: it is to run in
  /// this process after all (it exports functions, and was isolated only as part of "all").
  func load(file: String, generation: Int, loader: PluginLoader, named: Bool)
    throws(PluginLoadError) -> LoadedPlugin?
}

extension PluginLoader {
  /// Whether the plugin given as `reference` (a name or a path), found at `file`, runs
  /// isolated: its name, its reference or its file's name is in ``isolated``, or "all" is.
  package func isolates(_ reference: String, file: String) -> Bool {
    self.isolated.contains("all") || self.namesIsolated(reference, file: file)
  }

  /// Whether ``isolated`` names this plugin itself (not only "all").
  package func namesIsolated(_ reference: String, file: String) -> Bool {
    guard !self.isolated.isEmpty else { return false }
    if self.isolated.contains(reference) { return true }
    return self.isolated.contains(Self.pluginName(ofFile: file)) || self.isolated.contains(file)
  }

  /// The name a plugin file goes by: `Counter` for `…/libCounter.so`.
  package static func pluginName(ofFile path: String) -> String {
    var name = (path as NSString).lastPathComponent
    if name.hasSuffix(".so") { name.removeLast(3) }
    if name.hasPrefix("lib") { name.removeFirst(3) }
    return name
  }
}
