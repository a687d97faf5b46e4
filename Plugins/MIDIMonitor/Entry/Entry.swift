import MIDIMonitorFeature
import PatchbayPlugin

/// The plugin library's one exported function (patchbay/plugin.h).
@_cdecl("patchbay_plugin_entry")
public func patchbayPluginEntry(_ hostABIMajor: UInt16) -> UnsafeRawPointer? {
  PluginExport.entry(
    id: "dev.patchbay.midi-monitor-plugin", name: "MIDIMonitor", version: "1.0.0",
    features: [.feature(MIDIMonitor.self)],
    hostABIMajor: hostABIMajor
  )
}
