import Patchbay
import PatchbayLoader
import WasmKit

/// A plugin's `.wasm` file, parsed once and checked: every instance of its features is
/// instantiated from it.
///
/// ```swift
/// let module = try WasmModule(file: "Echo.wasm", bytes: bytes)
/// let guest = try WasmGuest(module, limits: WasmLimits())
/// ```
///
/// What it may do is exactly what it imports, and it imports only the edge
/// (`Sources/PatchbayWasmGuest/patchbay_wasm.c`) and the four WASI calls C's `stdio` links:
/// anything else is refused here, naming it, before any of its code runs.
final class WasmModule: @unchecked Sendable {
  let file: String
  let module: Module
  /// The module instance that described the plugin (its entry called, nothing created in it),
  /// kept for the first feature instance to take (``takeSpare()``): a swap makes one module
  /// instance where it would make two, each translating the code it runs afresh.
  private let spare = LockedValue<WasmGuest?>(nil)

  /// Keeps `guest`, untouched but for the plugin's entry, for ``takeSpare()``.
  func keep(spare guest: WasmGuest) { self.spare.withValue { $0 = guest } }

  /// The kept module instance, once; nil after.
  func takeSpare() -> WasmGuest? {
    self.spare.withValue { spare in
      defer { spare = nil }
      return spare
    }
  }
  /// How every instance runs: in WasmKit's interpreter, metering fuel. Each module instance
  /// gets an engine of its own (one is a few small tables), so that no state of WasmKit's is
  /// shared between instances that run on different threads.
  static let configuration = EngineConfiguration(fuelMetering: true)

  /// The imports a plugin may have: the edge's four, `send_after` (a delayed send to itself,
  /// ``WasmTimers``, which the Embedded Swift SDK's `Effect.send(_:after:)` imports), `resolve`
  /// (other plugins' functions, as "patchbay.functions/1" gives a native plugin), and what
  /// C's `printf` family needs
  /// (`fd_write` of its standard output and error reaches the host's log, `fd_fdstat_get` says
  /// they are terminals; the others fail).
  static let granted: Set<String> = [
    "patchbay.write", "patchbay.send", "patchbay.send_after", "patchbay.error", "patchbay.log",
    "patchbay.resolve",
    "wasi_snapshot_preview1.fd_write", "wasi_snapshot_preview1.fd_seek",
    "wasi_snapshot_preview1.fd_close", "wasi_snapshot_preview1.fd_fdstat_get",
  ]

  init(file: String, bytes: [UInt8]) throws(PluginLoadError) {
    self.file = file
    do {
      self.module = try parseWasm(bytes: bytes)
    } catch {
      throw PluginLoadError(
        file: file,
        "is not a WebAssembly module WasmKit can read (\(error)). Build it with "
          + "make wasm-plugins, or check that the file is whole.")
    }
    for item in self.module.imports where !Self.granted.contains("\(item.module).\(item.name)") {
      throw PluginLoadError(
        file: file,
        "imports \(item.module).\(item.name), which this host does not give a plugin (it gives "
          + Self.granted.sorted().joined(separator: ", ")
          + "). Remove the call that needs it.")
    }
  }
}
