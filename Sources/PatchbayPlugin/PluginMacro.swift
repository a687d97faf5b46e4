/// Makes the plugin library's one exported function, `patchbay_plugin_entry` (patchbay/plugin.h):
/// write it once, beside the features, and the plugin is one target.
///
/// ```swift
/// #plugin(
///   id: "dev.patchbay.counter-plugin", name: "Counter", version: "1.0.0",
///   features: [.feature(Counter.self)])
/// ```
///
/// `functions:` lists the global functions marked `@Export` by name (`[tunerCents]`); the entry
/// exports each through the `_export_tunerCents` that `@Export` made beside it.
@freestanding(declaration, names: named(patchbay_plugin_entry))
public macro plugin(
  id: String, name: String, version: String, features: [FeatureDriver],
  functions: [Any] = []
) = #externalMacro(module: "PatchbayMacros", type: "PluginMacro")
