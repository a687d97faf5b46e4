import PatchbayPlugin
import PracticeRoomFeature

/// The plugin library's one exported function (patchbay/plugin.h).
@_cdecl("patchbay_plugin_entry")
public func patchbayPluginEntry(_ hostABIMajor: UInt16) -> UnsafeRawPointer? {
  PluginExport.entry(
    id: "dev.patchbay.practice-room-plugin", name: "PracticeRoom", version: "1.0.0",
    features: [.feature(PracticeRoom.self)],
    hostABIMajor: hostABIMajor
  )
}
