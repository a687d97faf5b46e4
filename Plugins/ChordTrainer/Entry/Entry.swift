import ChordTrainerFeature
import PatchbayPlugin

/// The plugin library's one exported function (patchbay/plugin.h).
@_cdecl("patchbay_plugin_entry")
public func patchbayPluginEntry(_ hostABIMajor: UInt16) -> UnsafeRawPointer? {
  PluginExport.entry(
    id: "dev.patchbay.chord-trainer-plugin", name: "ChordTrainer", version: "1.0.0",
    features: [.feature(ChordTrainer.self), .feature(TrainerResults.self)],
    hostABIMajor: hostABIMajor
  )
}
