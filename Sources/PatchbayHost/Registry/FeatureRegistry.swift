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
    if !self.plugins.contains(where: { $0 === feature.plugin }) {
      self.plugins.append(feature.plugin)
    }
    self.byID[feature.id] = feature
  }

  /// The feature with `id`.
  public subscript(id: String) -> LoadedFeature? {
    self.byID[id]
  }

  /// Every feature id, sorted.
  public var featureIDs: [String] { self.byID.keys.sorted() }
}
