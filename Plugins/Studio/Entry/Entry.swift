import PatchbayPlugin
import StudioFeature

/// The plugin library's one exported function (patchbay/plugin.h).
@_cdecl("patchbay_plugin_entry")
public func patchbayPluginEntry(_ hostABIMajor: UInt16) -> UnsafeRawPointer? {
  PluginExport.entry(
    id: "dev.patchbay.studio-plugin", name: "Studio", version: "1.0.0",
    features: [.feature(Studio.self)],
    hostABIMajor: hostABIMajor
  )
}
