/// What loads a plugin that is not a library file: `lv2:URI` (PatchbayLV2Feature's).
public protocol PluginScheme: Sendable {
  /// The plugin `reference` (`lv2:http://…`) names; throws, in one line, why not.
  func load(_ reference: String) throws(PluginLoadError) -> LoadedPlugin
  /// Whether `plugin`, which ``load(_:)`` made, can run in a process of its own (an optional
  /// plugin that stands in for a missing one has nothing to run there).
  func isolates(_ plugin: LoadedPlugin) -> Bool
}
