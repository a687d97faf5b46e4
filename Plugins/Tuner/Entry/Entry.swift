import Foundation
import PatchbayPlugin
import TunerFeature

/// How far `frequency` is from `reference`, in cents (a hundredth of a semitone): a function
/// the Tuner plugin exports for other plugins and `patchbay call Tuner cents 445 440`.
@Export("cents", summary: "Cents from a reference")
public func tunerCents(_ frequency: Double, _ reference: Double) -> Double {
  1_200 * log2(frequency / reference)
}

/// The plugin library's one exported function (patchbay/plugin.h).
@_cdecl("patchbay_plugin_entry")
public func patchbayPluginEntry(_ hostABIMajor: UInt16) -> UnsafeRawPointer? {
  PluginExport.entry(
    id: "dev.patchbay.tuner-plugin", name: "Tuner", version: "1.0.0",
    features: [.feature(Tuner.self)],
    functions: [_export_tunerCents],
    hostABIMajor: hostABIMajor
  )
}
