import Foundation
import PatchbayABI
import PatchbayFunctions
import PatchbayLoader

/// A plugin descriptor read out of a guest's memory, where it has wasm32's layout (4-byte
/// pointers and sizes), into this process's layout: the same checks as a library's then apply
/// (``PluginLoader``'s, word for word), and the host reads names and actions as it always does.
///
/// ```swift
/// let native = try WasmDescriptor(guest, file: "Echo.wasm").native   // a pb_plugin_desc
/// ```
///
/// Strings are copied; the vtable's entries are the guest's function indices, which only
/// say whether a function is there (a native placeholder stands for each); the host calls the
/// guest through the edge's exports. An exported function's entry becomes the native address
/// `export` makes for it (``WasmFunctionExport``). The copy lives as long as the process, as a
/// library's descriptor does.
struct WasmDescriptor {
  let native: UnsafeRawPointer

  /// Makes a native address for the guest's function `name` of `signature` at table `index`.
  typealias Export = (_ name: String, _ signature: FunctionSignature, _ index: UInt32)
    throws(PluginLoadError) -> UnsafeRawPointer

  init(_ guest: WasmGuest, file: String, export: @escaping Export) throws(PluginLoadError) {
    let edge: UInt32
    let address: UInt32
    do {
      edge = try guest.call(guest.exports.edge)
      address = try guest.call(guest.exports.entry, [.i32(PATCHBAY_ABI_MAJOR)])
    } catch {
      throw PluginLoadError(file: file, "patchbay_plugin_entry \(error)")
    }
    guard edge == WasmDescriptor.edgeVersion else {
      throw PluginLoadError(
        file: file,
        "was built with edge version \(edge) of patchbay_wasm.c; this host speaks "
          + "\(WasmDescriptor.edgeVersion). Rebuild it with this host's "
          + "Sources/PatchbayWasmGuest/patchbay_wasm.c.")
    }
    guard address != 0 else {
      throw PluginLoadError(
        file: file,
        "patchbay_plugin_entry returned NULL for host ABI \(PATCHBAY_ABI_MAJOR): the plugin "
          + "refused to start. Check its log, or rebuild it against this host's patchbay.h.")
    }
    self.native = UnsafeRawPointer(
      try Reader(guest: guest, file: file, export: export).plugin(at: address))
  }

  /// The edge's version this host speaks (patchbay_wasm.c's PBW_EDGE_VERSION).
  static let edgeVersion: UInt32 = 1
}

/// Reads the structs out of a guest's memory, each into a copy here.
private struct Reader {
  let guest: WasmGuest
  let file: String
  let export: WasmDescriptor.Export

  func plugin(at address: UInt32) throws(PluginLoadError)
    -> UnsafeMutablePointer<pb_plugin_desc>
  {
    let size = try self.u32(address, 8)
    var plugin = pb_plugin_desc()
    plugin.magic = try self.u32(address)
    plugin.abi_major = pb_abi_version(truncatingIfNeeded: try self.u32(address, 4))
    plugin.abi_minor = pb_abi_version(truncatingIfNeeded: try self.u32(address, 4) >> 16)
    // 40 bytes in wasm32; 32 before 2.1's functions.
    plugin.struct_size = Self.nativeSize(
      size, of: pb_plugin_desc.self, wasm: 40,
      older: (32, MemoryLayout<pb_plugin_desc>.offset(of: \.function_count)!))
    if plugin.magic == PATCHBAY_MAGIC, UInt32(plugin.abi_major) == PATCHBAY_ABI_MAJOR,
      size >= 32
    {
      plugin.id = try self.string(at: try self.u32(address, 12))
      plugin.name = try self.string(at: try self.u32(address, 16))
      plugin.version = try self.string(at: try self.u32(address, 20))
      plugin.feature_count = try self.u32(address, 24)
      plugin.features = try self.array(
        at: try self.u32(address, 28), count: plugin.feature_count,
        limit: PluginLoader.Limits.features
      ) { (entry) throws(PluginLoadError) in UnsafePointer(try self.feature(at: entry)) }
      if size >= 40 {
        plugin.function_count = try self.u32(address, 32)
        plugin.functions = try self.array(
          at: try self.u32(address, 36), count: plugin.function_count,
          limit: PluginLoader.Limits.functions
        ) { (entry) throws(PluginLoadError) in UnsafePointer(try self.function(at: entry)) }
        if plugin.function_count > 0, self.guest.table == nil {
          throw PluginLoadError(
            file: self.file,
            "exports functions but not its function table, through which the host calls them. "
              + "Build it with this host's Sources/PatchbayWasmGuest/wasm-cc (it links with "
              + "--export-table).")
        }
      }
    }
    return Self.keep(plugin)
  }

  private func feature(at address: UInt32) throws(PluginLoadError)
    -> UnsafeMutablePointer<pb_feature_desc>
  {
    var feature = pb_feature_desc()
    let size = try self.u32(address)
    feature.struct_size = Self.nativeSize(size, of: pb_feature_desc.self, wasm: 36)
    feature.id = try self.string(at: try self.u32(address, 4))
    feature.name = try self.string(at: try self.u32(address, 8))
    feature.summary = try self.string(at: try self.u32(address, 12))
    feature.state_schema_version = try self.u32(address, 16)
    feature.action_count = try self.u32(address, 20)
    feature.actions = try self.array(
      at: try self.u32(address, 24), count: feature.action_count,
      limit: PluginLoader.Limits.actions
    ) { (entry) throws(PluginLoadError) in UnsafePointer(try self.action(at: entry)) }
    let vtable = try self.u32(address, 28)
    feature.vtable = vtable == 0 ? nil : UnsafePointer(try self.vtable(at: vtable))
    if size >= 36, try self.u32(address, 32) != 0 {
      let id = feature.id.map { String(cString: $0) } ?? "?"
      throw PluginLoadError(
        file: self.file,
        "feature '\(id)' has a processor, which a WebAssembly plugin cannot have yet: the "
          + "interpreter allocates on every call, and the audio thread must not. Build the "
          + "feature as a native plugin (docs/WASM.md, \"Processors\").")
    }
    return Self.keep(feature)
  }

  /// A function (20 bytes in wasm32), its guest function index made a native address.
  private func function(at address: UInt32) throws(PluginLoadError)
    -> UnsafeMutablePointer<pb_function_desc>
  {
    var function = pb_function_desc()
    let size = try self.u32(address)
    function.struct_size = Self.nativeSize(size, of: pb_function_desc.self, wasm: 20)
    function.name = try self.string(at: try self.u32(address, 4))
    function.signature = try self.string(at: try self.u32(address, 8))
    function.summary = try self.string(at: try self.u32(address, 12))
    let index = try self.u32(address, 16)
    let name = function.name.map { String(cString: $0) } ?? ""
    // What the loader refuses in its own words (no name, no function, a signature that does not
    // parse) is left for it to see.
    if index != 0, !name.isEmpty, let text = function.signature,
      let signature = try? FunctionSignature(parsing: String(cString: text))
    {
      function.function = unsafeBitCast(
        try self.export(name, signature, index), to: (@convention(c) () -> Void).self)
    } else if index != 0 {
      function.function = unsafeBitCast(Self.placeholder, to: (@convention(c) () -> Void).self)
    }
    return Self.keep(function)
  }

  private func action(at address: UInt32) throws(PluginLoadError)
    -> UnsafeMutablePointer<pb_action_desc>
  {
    var action = pb_action_desc()
    let size = try self.u32(address)
    // 24 bytes in wasm32; 20 before 2.3's sent_by.
    action.struct_size = Self.nativeSize(
      size, of: pb_action_desc.self, wasm: 24,
      older: (20, MemoryLayout<pb_action_desc>.offset(of: \.sent_by)!))
    action.name = try self.string(at: try self.u32(address, 4))
    action.summary = try self.string(at: try self.u32(address, 8))
    action.field_count = try self.u32(address, 12)
    action.fields = try self.array(
      at: try self.u32(address, 16), count: action.field_count,
      limit: PluginLoader.Limits.fields
    ) { (entry) throws(PluginLoadError) in
      var field = pb_field_desc()
      let size = try self.u32(entry)
      field.struct_size = Self.nativeSize(size, of: pb_field_desc.self, wasm: 12)
      field.name = try self.string(at: try self.u32(entry, 4))
      field.type = try self.string(at: try self.u32(entry, 8))
      return UnsafePointer(Self.keep(field))
    }
    if size >= 24 { action.sent_by = try self.string(at: try self.u32(address, 20)) }
    return Self.keep(action)
  }

  /// The vtable: which of its 15 functions the guest has (a nonzero table index), each a
  /// placeholder here.
  private func vtable(at address: UInt32) throws(PluginLoadError)
    -> UnsafeMutablePointer<pb_feature_vtable>
  {
    let size = try self.u32(address)
    let count = min(15, size >= 4 ? Int(size - 4) / 4 : 0)
    var vtable = pb_feature_vtable()
    vtable.struct_size = size < 4 ? size : UInt32(8 + 8 * count)
    for index in 0..<count where try self.u32(address, 4 + 4 * index) != 0 {
      withUnsafeMutableBytes(of: &vtable) {
        $0.storeBytes(of: Self.placeholder, toByteOffset: 8 + 8 * index, as: UnsafeRawPointer.self)
      }
    }
    return Self.keep(vtable)
  }

  /// Stands for a guest function in a copied vtable; never called.
  private static var placeholder: UnsafeRawPointer {
    unsafeBitCast(
      { () in fatalError("a WebAssembly plugin's vtable entry was called as native code") }
        as @convention(c) () -> Void, to: UnsafeRawPointer.self)
  }

  // MARK: - Reading the guest's memory

  /// The little-endian u32 at `address` + `offset`.
  private func u32(_ address: UInt32, _ offset: Int = 0) throws(PluginLoadError) -> UInt32 {
    let bytes = try self.bytes(UInt64(address) + UInt64(offset), 4)
    return UInt32(bytes[0]) | UInt32(bytes[1]) << 8 | UInt32(bytes[2]) << 16
      | UInt32(bytes[3]) << 24
  }

  private func bytes(_ address: UInt64, _ count: Int) throws(PluginLoadError) -> [UInt8] {
    let memory = self.guest.memory
    guard address + UInt64(count) <= UInt64(memory.byteCount) else {
      throw PluginLoadError(
        file: self.file,
        "its descriptor points at byte \(address), past the end of its \(memory.byteCount)-byte "
          + "memory. Rebuild it against this host's patchbay.h.")
    }
    return memory.withUnsafeBufferPointer(offset: UInt(address), count: count) { Array($0) }
  }

  /// A copy of the NUL-terminated string at `address`; NULL for 0.
  private func string(at address: UInt32) throws(PluginLoadError) -> UnsafePointer<CChar>? {
    guard address != 0 else { return nil }
    let memory = self.guest.memory
    let available = memory.byteCount - Int(min(UInt64(address), UInt64(memory.byteCount)))
    let text = try self.bytes(UInt64(address), min(available, 65_536))
    guard let end = text.firstIndex(of: 0) else {
      throw PluginLoadError(
        file: self.file,
        "a string of its descriptor at byte \(address) does not end (no NUL in 64 KiB)")
    }
    return UnsafePointer(strdup(String(decoding: text[..<end], as: UTF8.self)))
  }

  /// `count` pointers at `address`, each copied by `copy`. Past `limit`, nothing is read: the
  /// loader refuses the count, naming it.
  private func array<T>(
    at address: UInt32, count: UInt32, limit: Int,
    _ copy: (UInt32) throws(PluginLoadError) -> UnsafePointer<T>
  ) throws(PluginLoadError) -> UnsafePointer<UnsafePointer<T>?>? {
    guard address != 0 else { return nil }
    let length = Int(count) <= limit ? Int(count) : 0
    let entries = UnsafeMutablePointer<UnsafePointer<T>?>.allocate(capacity: max(1, length))
    entries.initialize(repeating: nil, count: max(1, length))
    for index in 0..<length {
      let entry = try self.u32(address, 4 * index)
      entries[index] = entry == 0 ? nil : try copy(entry)
    }
    return UnsafePointer(entries)
  }

  /// A struct's `struct_size` in wasm32 as this process's: `wasm` (the whole struct) or more is
  /// the whole native struct; `older.wasm` or more, an earlier version's native size; less is
  /// kept, for the loader to refuse in its own words.
  private static func nativeSize<T>(
    _ size: UInt32, of _: T.Type, wasm: UInt32, older: (wasm: UInt32, native: Int)? = nil
  ) -> UInt32 {
    if size >= wasm { return UInt32(MemoryLayout<T>.size) }
    if let older, size >= older.wasm { return UInt32(older.native) }
    return size
  }

  private static func keep<T>(_ value: T) -> UnsafeMutablePointer<T> {
    let kept = UnsafeMutablePointer<T>.allocate(capacity: 1)
    kept.initialize(to: value)
    return kept
  }
}
