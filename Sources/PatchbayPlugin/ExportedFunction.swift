/// A plain C function a Swift plugin exports (patchbay/functions.h): its name, its signature,
/// and the function's address. `@Export` makes one from a Swift function, with the signature
/// from its types; list the function in `#plugin`:
///
/// ```swift
/// @Export("double", summary: "Twice the value")
/// public func tapperDouble(_ value: Int32) -> Int32 { value * 2 }   // "int32(int32)"
///
/// #plugin(…, features: [Tapper.self], functions: [tapperDouble])
/// ```
public struct ExportedFunction: @unchecked Sendable {
  public let name: String
  public let signature: String
  public let summary: String
  let pointer: UnsafeRawPointer

  /// `pointer` makes the C function's address: a `@convention(c)` function cast to a raw
  /// pointer. The signature is checked when the host loads the plugin.
  public init(
    _ name: String, _ signature: String, summary: String = "",
    pointer: () -> UnsafeRawPointer
  ) {
    self.name = name
    self.signature = signature
    self.summary = summary
    self.pointer = pointer()
  }
}
