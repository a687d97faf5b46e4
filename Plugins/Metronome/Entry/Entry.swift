import MetronomeFeature
import PatchbayPlugin

/// The plugin library's one exported function (patchbay/plugin.h).
@_cdecl("patchbay_plugin_entry")
public func patchbayPluginEntry(_ hostABIMajor: UInt16) -> UnsafeRawPointer? {
  PluginExport.entry(
    id: "dev.patchbay.metronome-plugin", name: "Metronome", version: "1.0.0",
    features: [.feature(Metronome.self)], hostABIMajor: hostABIMajor
  )
}
