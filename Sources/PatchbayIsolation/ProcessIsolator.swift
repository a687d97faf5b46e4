import PatchbayLoader

/// The loader's way to run a plugin in a process of its own (``PluginIsolator``): starts the
/// process, and describes the plugin to the host by what the process loaded, each feature's
/// code an ``IsolatedFeature``.
///
/// ```swift
/// var loader = config.loader()
/// loader.isolated = ["Synth"]
/// loader.isolator = ProcessIsolator(options: IsolationOptions(limits: config.limits))
/// ```
package struct ProcessIsolator: PluginIsolator {
  package var options: IsolationOptions

  package init(options: IsolationOptions) {
    self.options = options
  }

  package func load(file: String, generation: Int, loader: PluginLoader, named: Bool)
    throws(PluginLoadError) -> LoadedPlugin?
  {
    var options = self.options
    options.pin = loader.pins[file]
    options.allowsInsecurePaths = loader.allowsInsecurePaths
    options.providers = loader.functionProviders.filter { $0 != file }
    options.sandboxAllows = Set(loader.sandboxAllows[file] ?? [])
    let isolated: IsolatedPlugin
    do {
      isolated = try IsolatedPlugin(file: file, options: options)
    } catch {
      throw PluginLoadError(
        file: file, error.loaderReason ?? "could not run isolated: \(error.description)")
    }
    let description = isolated.description
    if description.features.isEmpty {
      // A library of functions: other plugins call them directly, in their own process, so
      // there is nothing to call across. Isolated as part of "all", it runs here; named, it
      // is refused.
      guard named else { return nil }
      throw PluginLoadError(
        file: file,
        "has no features, only functions (\(description.functions.joined(separator: ", "))), "
          + "which other plugins call in their own process, so it cannot run isolated. Take it "
          + "out of [plugins] isolate: an isolated plugin that imports them loads its own copy.")
    }
    let plugin = LoadedPlugin(
      path: file, generation: generation, id: description.id, name: description.name,
      version: description.version, abi: (description.abiMajor, description.abiMinor)
    ) { plugin in
      description.features.enumerated().map { index, feature in
        LoadedFeature(
          plugin: plugin, id: feature.id, name: feature.name, summary: feature.summary,
          schemaVersion: feature.schemaVersion,
          actions: feature.actions.map { action in
            ActionInfo(
              name: action.name, summary: action.summary,
              fields: action.fields.map { ActionInfo.Field(name: $0.name, type: $0.type) },
              sentBy: action.sentBy)
          },
          code: IsolatedFeature(plugin: isolated, index: UInt32(index), description: feature))
      }
    }
    // Its functions run in its process: nothing here can call them (an isolated importer
    // loads its own copy), and a resolve says so.
    plugin.isolatedFunctions = description.functions
    return plugin
  }
}
