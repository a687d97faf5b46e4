import PatchbayABI
import PatchbayLoader
@_spi(Fuzzing) import WasmKit

/// One instance of a plugin's module: its own store, memory and fuel, holding at most one
/// feature instance (the edge's `patchbay_wasm_create`). Not thread-safe: one call at a time.
///
/// ```swift
/// let guest = try WasmGuest(module, limits: limits)
/// let status = try guest.call(guest.exports.reduce, bytes: action)   // PB_OK
/// let (_, state) = try guest.collect(limit: 1 << 20) { try guest.call(guest.exports.snapshot, [.i32($0)]) }
/// ```
///
/// Every call gets the limit's fuel afresh; a trap (fuel, memory, a bad pointer handed to the
/// host) throws ``WasmTrap``, after which the guest is not to be called again.
final class WasmGuest {
  let store: Store
  let instance: Instance
  let memory: Memory
  let exports: Exports
  let edge: WasmEdge
  let limits: WasmLimits
  private let limiter: WasmMemoryLimiter
  /// The stack every call runs on: one per guest, not one per call (512 KiB each).
  private var stack: ExecutionStack
  /// Where the host puts a call's bytes (the edge's `patchbay_wasm_input`), and how many fit.
  private var input: (address: UInt32, capacity: Int) = (0, 0)

  /// The edge's exports (patchbay_wasm.c).
  struct Exports {
    let entry, edge, input, create, destroy, reduce, snapshot, render, changedFields,
      cancelEffects, runningEffects, parseAction, formatAction, migrate: Function
  }

  init(_ module: WasmModule, limits: WasmLimits) throws(PluginLoadError) {
    let engine = Engine(configuration: WasmModule.configuration)
    let store = Store(engine: engine)
    let limiter = WasmMemoryLimiter(bytes: limits.memoryBytes)
    store.resourceLimiter = limiter
    let edge = WasmEdge()
    let instance: Instance
    do {
      instance = try module.module.instantiate(store: store, imports: edge.imports(in: store))
    } catch {
      throw PluginLoadError(file: module.file, "cannot be instantiated: \(WasmTrap.words(error))")
    }
    guard let memory = instance.exports[memory: "memory"] else {
      throw PluginLoadError(
        file: module.file, "exports no memory. Link it with wasm-ld (make wasm-plugins).")
    }
    func function(_ name: String) throws(PluginLoadError) -> Function {
      guard let found = instance.exports[function: name] else {
        throw PluginLoadError(
          file: module.file,
          "has no '\(name)' export, so it is not a Patchbay plugin built for WebAssembly. "
            + "Link Sources/PatchbayWasmGuest/patchbay_wasm.c beside the plugin, and export "
            + "patchbay_plugin_entry (make wasm-plugins does both).")
      }
      return found
    }
    self.exports = Exports(
      entry: try function("patchbay_plugin_entry"), edge: try function("patchbay_wasm_edge"),
      input: try function("patchbay_wasm_input"),
      create: try function("patchbay_wasm_create"),
      destroy: try function("patchbay_wasm_destroy"),
      reduce: try function("patchbay_wasm_reduce"),
      snapshot: try function("patchbay_wasm_snapshot"),
      render: try function("patchbay_wasm_render"),
      changedFields: try function("patchbay_wasm_changed_fields"),
      cancelEffects: try function("patchbay_wasm_cancel_effects"),
      runningEffects: try function("patchbay_wasm_running_effects"),
      parseAction: try function("patchbay_wasm_parse_action"),
      formatAction: try function("patchbay_wasm_format_action"),
      migrate: try function("patchbay_wasm_migrate"))
    (self.store, self.instance, self.memory, self.edge, self.limits, self.limiter) = (
      store, instance, memory, edge, limits, limiter
    )
    self.stack = ExecutionStack(engine: engine)
    edge.memory = memory
    edge.table = instance.exports[table: "__indirect_function_table"]
  }

  /// Calls `function` with a fresh budget of fuel; its one result, or 0 for none.
  @discardableResult
  func call(_ function: Function, _ arguments: [Value] = []) throws(WasmTrap) -> UInt32 {
    try self.invoke(function, arguments).first?.i32 ?? 0
  }

  /// Calls `function` with a fresh budget of fuel; its results.
  func invoke(_ function: Function, _ arguments: [Value]) throws(WasmTrap) -> [Value] {
    self.store.fuel = Fuel(remaining: self.limits.fuel)
    do {
      return try function.invoke(arguments, on: &self.stack)
    } catch {
      let trap = WasmTrap(error, limits: self.limits, host: self.edge.takeFault())
      guard self.limiter.takeRefusal() else { throw trap }
      throw WasmTrap(
        words: "\(trap.description), after its memory reached the limit of "
          + "\(self.limits.memoryBytes >> 20) MiB ([limits] wasm-memory-mb)")
    }
  }

  /// `bytes` in the guest's memory (its input room, grown when they do not fit) for `body`,
  /// which gets their address and length as arguments to pass on.
  func with<T>(_ bytes: [UInt8], _ body: (Value, Value) throws(WasmTrap) -> T) throws(WasmTrap)
    -> T
  {
    let address = try self.room(for: bytes.count)
    if !bytes.isEmpty {
      self.memory.withUnsafeMutableBufferPointer(offset: UInt(address), count: bytes.count) {
        $0.copyBytes(from: bytes)
      }
    }
    return try body(.i32(address), .i32(UInt32(bytes.count)))
  }

  /// The address of the guest's input room, with space for `count` bytes (grown when they do
  /// not fit): where the host writes what a call reads. The next call's bytes go there too.
  func room(for count: Int) throws(WasmTrap) -> UInt32 {
    if count > self.input.capacity || self.input.address == 0 {
      guard count <= Int(UInt32.max) else {
        throw WasmTrap(words: "\(count) bytes do not fit in a 32-bit module's memory")
      }
      let address = try self.call(self.exports.input, [.i32(UInt32(count))])
      guard address != 0, UInt64(address) + UInt64(count) <= UInt64(self.memory.byteCount)
      else {
        throw WasmTrap(
          words: "its patchbay_wasm_input gave no room for \(count) bytes (out of memory?)")
      }
      self.input = (address, max(count, 256))
    }
    return self.input.address
  }

  /// The guest's function table (what its C function pointers index), which wasm-cc exports.
  var table: Table? { self.edge.table }

  /// Runs `body` with a sink the guest's writer fills, up to `limit` bytes: its status, and
  /// the bytes (nil when the guest wrote past the limit).
  func collect(limit: Int, _ body: (UInt32) throws(WasmTrap) -> UInt32) throws(WasmTrap)
    -> (pb_status, [UInt8]?)
  {
    self.edge.output = []
    self.edge.outputLimit = limit
    self.edge.overflowed = false
    defer { self.edge.output = [] }
    let status = pb_status(rawValue: try body(1))
    return (status, self.edge.overflowed ? nil : self.edge.output)
  }
}

/// Lets an instance's memory grow to its limit, no further (`memory.grow` answers -1).
final class WasmMemoryLimiter: ResourceLimiter, @unchecked Sendable {
  let bytes: Int
  /// Whether a growth was refused since the last ``takeRefusal()``. [the guest's caller]
  private var refused = false

  init(bytes: Int) { self.bytes = bytes }

  func takeRefusal() -> Bool {
    defer { self.refused = false }
    return self.refused
  }

  func limitMemoryGrowth(to desired: Int) throws -> Bool {
    guard desired <= self.bytes else {
      self.refused = true
      return false
    }
    return true
  }

  func limitTableGrowth(to desired: Int) throws -> Bool { desired <= 1 << 16 }
}
