import Foundation
import PatchbayIsolation
import PatchbayLV2Feature
import PatchbayLoader
import PatchbayWasm

extension AppConfig {
  /// The loader this config asks for, holding its pins: it searches `firstSearchPaths`, then
  /// the config's search paths, then `extraSearchPaths`.
  ///
  /// ```swift
  /// config.loader(extraSearchPaths: [besideTheExecutable])   // patchbay run: the config's first
  /// config.loader(firstSearchPaths: [testBuild])             // a test: its own build's plugins
  /// ```
  public func loader(firstSearchPaths: [String] = [], extraSearchPaths: [String] = [])
    -> PluginLoader
  {
    var loader = PluginLoader(searchPaths: firstSearchPaths + self.searchPaths + extraSearchPaths)
    loader.isolated = Set(self.isolated).union(IsolationOptions.fromEnvironment)
    loader.isolator = ProcessIsolator(options: IsolationOptions(limits: self.limits))
    loader.sandboxIsListed = true
    let lv2 = self.nodes.compactMap(\.lv2)
    LV2FeaturePlugin.install(
      into: &loader, allowingNonRealtime: Set(lv2.filter(\.allowsNonRealtime).map(\.uri)),
      optional: Set(lv2.filter(\.isOptional).map(\.uri)))
    WasmPlugin.install(
      into: &loader,
      limits: WasmLimits(
        fuel: UInt64(self.limits.wasmFuel), memoryBytes: self.limits.wasmMemoryMB << 20))
    for plugin in self.plugins {
      guard let file = try? loader.locate(plugin.location) else { continue }
      loader.functionProviders.append(file.path)
      if let hash = plugin.sha256 { loader.pins[file.path] = hash }
      if let allowed = self.sandbox[plugin.reference] { loader.sandboxAllows[file.path] = allowed }
    }
    return loader
  }

  /// Loads every plugin the config names and checks that each feature node's id is declared
  /// by one of them. Returns the registry; throws every problem, each with its line.
  public func loadPlugins(with loader: PluginLoader) throws(ConfigErrors) -> FeatureRegistry {
    var registry = FeatureRegistry()
    var errors: [ConfigError] = []
    for (index, plugin) in self.plugins.enumerated() {
      do {
        try registry.add(try loader.load(plugin.location))
      } catch {
        errors.append(
          ConfigError(
            file: self.file, line: plugin.line, keyPath: plugin.keyPath ?? "plugins.load[\(index)]",
            // The key path names the LV2 plugin already; its library, if the error is about it.
            .plugin(
              plugin.keyPath != nil && error.file == plugin.reference
                ? error.reason : error.description)
          ))
      }
    }
    for node in self.nodes where registry[node.featureID] == nil {
      errors.append(
        ConfigError(
          file: self.file, line: node.line, keyPath: "feature \"\(node.key)\".id",
          .undeclaredFeature(id: node.featureID, known: registry.featureIDs))
      )
    }
    if errors.isEmpty { errors = self.keyBindingErrors(in: registry) }
    guard errors.isEmpty else { throw ConfigErrors(errors: errors) }
    for node in self.nodes where node.lv2?.isOptional == true {
      guard let plugin = registry[node.featureID]?.plugin,
        let reason = LV2FeaturePlugin.absence(of: plugin)
      else { continue }
      registry.notices.append(
        "\(URL(fileURLWithPath: self.file).lastPathComponent):\(node.line): feature "
          + "\"\(node.key)\" plays without it: \(reason)")
    }
    return registry
  }
}
