/// What one call into a WebAssembly plugin may use: `[limits] wasm-fuel` and `wasm-memory-mb`
/// in host-config. Past either, the call traps, its instance goes on from the state it had
/// before the call, and the reason names the limit.
///
/// ```swift
/// var limits = WasmLimits()
/// limits.fuel = 1_000_000          // about a million WebAssembly instructions a call
/// limits.memoryBytes = 16 << 20    // 16 MiB of linear memory an instance
/// ```
public struct WasmLimits: Sendable, Equatable {
  /// Instructions a call may run, about one unit of fuel each: a reduce that spins stops here.
  /// A hundred million is a tenth of a second or more.
  public var fuel: UInt64 = 100_000_000
  /// Linear memory an instance may grow to, in bytes.
  public var memoryBytes: Int = 64 << 20

  public init() {}

  public init(fuel: UInt64, memoryBytes: Int) {
    (self.fuel, self.memoryBytes) = (fuel, memoryBytes)
  }
}
