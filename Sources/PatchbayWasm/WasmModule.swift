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
/// (`Sources/PatchbayWasmGuest/patchbay_wasm.c`), the services its source asked for
/// (``WasmCapability``, which an app's `[sandbox]` must grant) and the four WASI calls C's
/// `stdio` links: anything else is refused here, naming it, before any of its code runs.
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
  /// ``WasmTimers``, which the Embedded Swift SDK's `Effect.send(_:after:)` imports) and its
  /// keyed form with `cancel_keyed` (`.cancellable(id:)`, `.cancel(id:)`), the
  /// clock, the services' (``WasmCapability``, each only if granted), and what C's `printf`
  /// family needs (`fd_write` of its standard output and error reaches the host's log,
  /// `fd_fdstat_get` says they are terminals; the others fail).
  static let known: Set<String> = Set(
    [
      "patchbay.write", "patchbay.send", "patchbay.send_after", "patchbay.error", "patchbay.log",
      "patchbay.clock_now", "patchbay.send_after_keyed", "patchbay.cancel_keyed",
      "wasi_snapshot_preview1.fd_write", "wasi_snapshot_preview1.fd_seek",
      "wasi_snapshot_preview1.fd_close", "wasi_snapshot_preview1.fd_fdstat_get",
    ] + WasmCapability.allCases.flatMap { $0.imports.map { "patchbay.\($0)" } })

  /// Parses `bytes` and checks its imports: each must be one the host gives, and one of a
  /// service only when `granted` has it (nil: a plugin loaded alone, granted every service).
  init(file: String, bytes: [UInt8], granted: Set<String>? = nil) throws(PluginLoadError) {
    self.file = file
    do {
      self.module = try parseWasm(bytes: bytes)
    } catch {
      throw PluginLoadError(
        file: file,
        "is not a WebAssembly module WasmKit can read (\(error)). Build it with "
          + "make wasm-plugins, or check that the file is whole.")
    }
    for item in self.module.imports {
      let name = "\(item.module).\(item.name)"
      guard Self.known.contains(name) else {
        throw PluginLoadError(
          file: file,
          "imports \(name), which this host does not give a plugin (it gives "
            + Self.known.sorted().joined(separator: ", ") + "). Remove the call that needs it.")
      }
      if let granted, let capability = WasmCapability.of(module: item.module, name: item.name),
        !granted.contains(capability.rawValue)
      {
        let asked = Self.capabilities(of: self.module).map { "\"\($0.rawValue)\"" }
        throw PluginLoadError(
          file: file,
          "imports \(name), the \"\(capability.rawValue)\" service, which host-config does not "
            + "grant it. To let it, add [sandbox] \"\(file.split(separator: "/").last ?? "")\" = "
            + "[\(asked.joined(separator: ", "))] to the config (the key as [plugins] load "
            + "names it); else take out the code that asks for PB_SERVICE_"
            + "\(capability.rawValue.uppercased()).")
      }
    }
  }

  /// The services `module` imports, in ``WasmCapability``'s order.
  static func capabilities(of module: Module) -> [WasmCapability] {
    let imported = Set(module.imports.map { "\($0.module).\($0.name)" })
    return WasmCapability.allCases.filter { capability in
      capability.imports.contains { imported.contains("patchbay.\($0)") }
    }
  }
}
