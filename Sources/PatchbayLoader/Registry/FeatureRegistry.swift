/// The features of every loaded plugin, by id; refuses two plugins declaring the same id.
///
/// ```swift
/// var registry = FeatureRegistry()
/// try registry.add(loader.load("Counter"))
/// try registry.add(loader.load("Echo"))
/// registry["dev.patchbay.echo"]?.name  // "Echo"
/// ```
public struct FeatureRegistry: Sendable {
  public private(set) var plugins: [LoadedPlugin] = []
  /// What loading said without failing, one line each: an optional plugin that is not
  /// installed (`patchbay run` prints them as it starts).
  public var notices: [String] = []
  private var byID: [String: LoadedFeature] = [:]

  public init() {}

  /// Adds a plugin's features; throws, adding nothing, if one of its ids is already taken.
  public mutating func add(_ plugin: LoadedPlugin) throws(PluginLoadError) {
    for feature in plugin.features {
      if let existing = self.byID[feature.id] {
        throw PluginLoadError(
          file: plugin.path,
          "declares feature '\(feature.id)', which \(existing.plugin.path) already declares. "
            + "Load only one of them, or give one feature another id."
        )
      }
    }
    self.plugins.append(plugin)
    for feature in plugin.features { self.byID[feature.id] = feature }
  }

  /// Makes `feature` the implementation of its id (a swap), keeping its plugin loaded.
  public mutating func replace(with feature: LoadedFeature) {
    // The newest generation of its plugin id comes last: its functions are the ones found.
    // (Held here: the list may hold the only reference, and a feature's is unowned.)
    let plugin = feature.plugin
    self.plugins.removeAll { $0 === plugin }
    self.plugins.append(plugin)
    self.byID[feature.id] = feature
  }

  /// The newest generation of each plugin id, in load order.
  public var currentPlugins: [LoadedPlugin] {
    var seen: Set<String> = []
    return self.plugins.reversed().filter { seen.insert($0.id).inserted }.reversed()
  }

  /// The plugin whose functions `provider` names now: a plugin id or name (its newest
  /// generation here), or a feature id (the plugin implementing it).
  public func provider(_ provider: String) -> LoadedPlugin? {
    if let feature = self.byID[provider] { return feature.plugin }
    return self.plugins.last { $0.id == provider } ?? self.plugins.last { $0.name == provider }
  }

  /// Makes `plugin` the newest generation of its id, for its functions (a swap of a plugin
  /// without features, or of all of them).
  public mutating func replace(plugin: LoadedPlugin) {
    if !self.plugins.contains(where: { $0 === plugin }) { self.plugins.append(plugin) }
    for feature in plugin.features where self.byID[feature.id] != nil {
      self.byID[feature.id] = feature
    }
  }

  /// The feature with `id`.
  public subscript(id: String) -> LoadedFeature? {
    self.byID[id]
  }

  /// Every feature id, sorted.
  public var featureIDs: [String] { self.byID.keys.sorted() }
}
