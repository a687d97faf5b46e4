/// A plain C function a Swift plugin exports (patchbay/functions.h): its name, its signature,
/// and the function, written with `@_cdecl` (or `@c`).
///
/// ```swift
/// @_cdecl("tapper_double")
/// public func tapperDouble(_ value: Int32) -> Int32 { value * 2 }
///
/// PluginExport.entry(
///   id: "dev.example.tapper-plugin", name: "Tapper", version: "1.0.0",
///   features: [.feature(Tapper.self)],
///   functions: [
///     ExportedFunction("double", "int32(int32)", summary: "Twice the value") {
///       unsafeBitCast(tapperDouble as @convention(c) (Int32) -> Int32, to: UnsafeRawPointer.self)
///     }
///   ],
///   hostABIMajor: hostABIMajor)
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
