/// Exports a global function to other plugins and to `patchbay call` (patchbay/functions.h):
/// the signature string is derived from its Swift types, and the `@convention(c)` address
/// taken for you. List the function in `#plugin`'s `functions:` (it makes `_export_<function>`,
/// which the entry exports).
///
/// ```swift
/// @Export("cents", summary: "Cents from a reference")
/// public func tunerCents(_ frequency: Double, _ reference: Double) -> Double { … }
/// #plugin(…, functions: [tunerCents])   // "double(double, double)"
/// ```
///
/// Types: `Int8`…`Int64`, `Int`, the unsigned ones, `Float`, `Double`, `Bool`, raw pointers,
/// `UnsafePointer<CChar>?` (`string`), `(UnsafePointer<UInt8>?, Int)` (`buffer`) and
/// `(UnsafeMutablePointer<CChar>?, Int)` (`out_string`). Anything else does not compile.
@attached(peer, names: prefixed(_export_))
public macro Export(_ name: String, summary: String = "") =
  #externalMacro(module: "PatchbayMacros", type: "ExportMacro")

/// Calls a function another plugin exports, typed: on a `@Feature`'s `static var`, whose Swift
/// type gives the signature the host checks when it resolves the function. nil when it was not
/// resolved (the provider is missing, or its signature differs: the host says which).
///
/// ```swift
/// @Import("dev.patchbay.theory-plugin", "note_frequency")
/// static var noteFrequency: ((Int32, Double) -> Double)?
/// // in reduce:  state.frequency = Self.noteFrequency?(69, 440) ?? 0
/// ```
@attached(accessor)
public macro Import(_ provider: String, _ name: String) =
  #externalMacro(module: "PatchbayMacros", type: "ImportMacro")

/// The text an `out_string` function writes (patchbay/functions.h): it gets a buffer and its
/// capacity and returns the length it needs, as `snprintf` does; a longer text is asked for
/// again with a buffer that fits (up to 64 KiB). nil when it fails (a negative length).
///
/// ```swift
/// let name = readOutString { Self.noteName?(61, $0, $1) ?? -1 }   // "C#4"
/// ```
public func readOutString(_ write: (UnsafeMutablePointer<CChar>?, Int) -> Int32) -> String? {
  var capacity = 64
  while true {
    var buffer = [CChar](repeating: 0, count: capacity)
    let needed = buffer.withUnsafeMutableBufferPointer { write($0.baseAddress, $0.count) }
    guard needed >= 0 else { return nil }
    if Int(needed) < capacity {
      return buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }
    guard Int(needed) < 65_536 else { return nil }
    capacity = Int(needed) + 1
  }
}
