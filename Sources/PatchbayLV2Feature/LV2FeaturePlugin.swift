import PatchbayLV2
import PatchbayLoader

/// Installed LV2 plugins as Patchbay plugins of one feature each: what `lv2:URI` names in
/// `[plugins] load`, and what `[[feature]] lv2 = "URI"` loads.
///
/// ```swift
/// var loader = PluginLoader()
/// LV2FeaturePlugin.install(into: &loader)
/// let eq = try loader.load("lv2:http://gareus.org/oss/lv2/fil4#stereo")
/// eq.features[0].id          // "http://gareus.org/oss/lv2/fil4#stereo"
/// ```
///
/// The feature's id is the plugin's URI, and the plugin's path is `lv2:URI`: what a recording
/// names and a replay loads again. Crash reports and refusals name the plugin's library.
public enum LV2FeaturePlugin {
  /// What a reference to an LV2 plugin starts with.
  public static let scheme = "lv2"

  /// Lets `loader` load `lv2:URI`. Plugins whose URI is in `allowingNonRealtime` load even
  /// if they do not say they are hard-realtime capable (`lv2-realtime = false`).
  /// Plugins whose URI is in `optional` load as an absent feature when they cannot load
  /// (``absence(of:)`` says why).
  public static func install(
    into loader: inout PluginLoader, allowingNonRealtime: Set<String> = [],
    optional: Set<String> = []
  ) {
    loader.schemes[Self.scheme] = Scheme(
      allowingNonRealtime: allowingNonRealtime, optional: optional)
  }

  private struct Scheme: PluginScheme {
    let allowingNonRealtime: Set<String>
    let optional: Set<String>

    func load(_ reference: String) throws(PluginLoadError) -> LoadedPlugin {
      let uri = String(reference.dropFirst(LV2FeaturePlugin.scheme.count + 1))
      do {
        return try LV2FeaturePlugin.load(
          uri: uri, allowingNonRealtime: self.allowingNonRealtime.contains(uri))
      } catch  where self.optional.contains(uri) {
        // The reason names the plugin already, or its library.
        let code = AbsentLV2Feature(
          uri: uri, reason: error.file == reference ? error.reason : error.description)
        return LoadedPlugin(path: reference, id: uri, name: uri, version: "absent") { plugin in
          [LoadedFeature(plugin: plugin, id: uri, name: "\(uri) (absent)", code: code)]
        }
      }
    }

    /// A missing optional plugin stays here: there is nothing to run elsewhere.
    func isolates(_ plugin: LoadedPlugin) -> Bool { LV2FeaturePlugin.absence(of: plugin) == nil }
  }

  /// Why `plugin`, an optional LV2 plugin, stands in for one that did not load; nil when it
  /// is the plugin itself.
  public static func absence(of plugin: LoadedPlugin) -> String? {
    (plugin.features.first?.code as? AbsentLV2Feature)?.reason
  }

  /// The plugin of the LV2 plugin `uri`. Throws, in one line naming it, when it is not
  /// installed, needs what Patchbay does not provide, is not hard-realtime capable (unless
  /// allowed), has more controls than a parameter block holds, or its library does not load.
  public static func load(uri: String, allowingNonRealtime: Bool = false) throws(PluginLoadError)
    -> LoadedPlugin
  {
    let reference = "\(Self.scheme):\(uri)"
    let info: LV2PluginInfo
    do throws(LV2Error) { info = try LV2World.shared.plugin(uri: uri) } catch {
      throw PluginLoadError(file: reference, error.description)
    }
    let file = info.libraryPath ?? reference
    if let refusal = info.refusal(allowingNonRealtime: allowingNonRealtime) {
      throw PluginLoadError(
        file: file,
        refusal
          + (info.isHardRealtimeCapable
            ? "" : ". Allow it with lv2-realtime = false in its [[feature]], if you accept that"))
    }
    if let problem = info.libraryProblem { throw PluginLoadError(file: file, problem) }
    let code = LV2FeatureCode(info, allowsNonRealtime: allowingNonRealtime, file: file)
    guard code.controls.ports.count <= LV2FeatureCode.maximumControls else {
      throw PluginLoadError(
        file: file,
        "<\(uri)> has \(code.controls.ports.count) control inputs; an LV2 feature holds at most "
          + "\(LV2FeatureCode.maximumControls)")
    }
    // Its path is the reference, not the library: what a recording's swap and a validator's
    // app load again.
    return LoadedPlugin(path: reference, id: uri, name: info.name, version: "LV2") { plugin in
      [
        LoadedFeature(
          plugin: plugin, id: uri, name: info.name,
          summary: "\(info.classLabel), LV2: its controls are its state",
          actions: LV2Action.declared, code: code)
      ]
    }
  }
}
