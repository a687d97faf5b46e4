import CounterAltFeature
import PatchbayPlugin

/// The plugin library's one exported function (patchbay/plugin.h).
@_cdecl("patchbay_plugin_entry")
public func patchbayPluginEntry(_ hostABIMajor: UInt16) -> UnsafeRawPointer? {
  PluginExport.entry(
    id: "dev.patchbay.counter-alt-plugin", name: "CounterAlt", version: "2.0.0",
    features: [.feature(CounterAlt.self)], hostABIMajor: hostABIMajor
  )
}
