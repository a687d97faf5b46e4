import PatchbayPlugin
import PracticeFeature

/// The plugin library's one exported function (patchbay/plugin.h).
@_cdecl("patchbay_plugin_entry")
public func patchbayPluginEntry(_ hostABIMajor: UInt16) -> UnsafeRawPointer? {
  PluginExport.entry(
    id: "dev.patchbay.practice-plugin", name: "Practice", version: "1.0.0",
    features: [.feature(Practice.self), .feature(Quiz.self), .feature(Results.self)],
    hostABIMajor: hostABIMajor
  )
}
