/// Makes the plugin library's one exported function, `patchbay_plugin_entry` (patchbay/plugin.h):
/// write it once, beside the features, and the plugin is one target.
///
/// ```swift
/// #plugin(id: "dev.patchbay.counter-plugin", name: "Counter", version: "1.0.0", features: [Counter.self])
/// ```
///
/// `features:` lists the feature types (an ``AudioFeature`` with its processor); list
/// ``FeatureDriver``s instead (`.feature(Counter.self, id: …)`) to export one under another id.
/// `functions:` lists the global functions marked `@Export` by name (`[tunerCents]`); the entry
/// exports each through the `_export_tunerCents` that `@Export` made beside it.
@freestanding(declaration, names: named(patchbay_plugin_entry))
public macro plugin(
  id: String, name: String, version: String, features: [any PluginFeature.Type],
  functions: [Any] = []
) = #externalMacro(module: "PatchbayMacros", type: "PluginMacro")

/// `#plugin` with the features as ``FeatureDriver``s: `[.feature(Counter.self, id: "…")]`.
@freestanding(declaration, names: named(patchbay_plugin_entry))
public macro plugin(
  id: String, name: String, version: String, features: [FeatureDriver],
  functions: [Any] = []
) = #externalMacro(module: "PatchbayMacros", type: "PluginMacro")
