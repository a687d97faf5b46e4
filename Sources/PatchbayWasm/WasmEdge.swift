import Foundation
import PatchbayABI
import PatchbayFunctions
import PatchbayLoader
import WasmKit

/// The host's side of a guest's imports (module "patchbay", and the WASI calls C's stdio
/// links): where the call in progress writes its output, sends its actions, and reports.
///
/// Every pointer the guest hands over is checked against its memory; one past it stops the
/// call with a trap naming the import and the pointer, and the host goes on.
final class WasmEdge {
  var memory: Memory?
  /// The guest's function table, where `resolve` puts the functions it gives (wasm-cc exports
  /// it); nil for a module without one, which then resolves nothing.
  var table: Table?
  /// The functions `resolve` gave, by provider, name and signature: each once per instance.
  private var resolved: [String: UInt32] = [:]
  /// The instance the guest's sends, errors and logs are for; nil: they are dropped (a
  /// replay, or the instance-free calls' guest between calls).
  var context: HostContext?
  /// Whether the guest is reducing actions again after a trap: what they send, report and log
  /// was heard the first time and is dropped; what they resolve is resolved again.
  var replaying = false
  /// Who hears the guest's sends, errors and logs now.
  var listener: HostContext? { self.replaying ? nil : self.context }
  /// The instance's delayed sends (`send_after`); nil for the instance-free calls' guest.
  var timers: WasmTimers?
  var output: [UInt8] = []
  var outputLimit = 0
  var overflowed = false
  /// Why a host function stopped the call, until the caller takes it.
  private var fault: String?

  func takeFault() -> String? {
    defer { self.fault = nil }
    return self.fault
  }

  /// The functions the guest imports, bound to this edge.
  func imports(in store: Store) -> Imports {
    var imports = Imports()
    // Raw: the parameters in a buffer the engine owns, no array made per call.
    imports.define(
      module: "patchbay", name: "write",
      Function(store: store, parameters: [.i32, .i32, .i32], results: [.i32]) {
        [unowned self] _, arguments, results in
        results[0] = .i32(try self.write(arguments[1].i32, arguments[2].i32))
      })
    imports.define(
      module: "patchbay", name: "send",
      Function(store: store, parameters: [.i32, .i32], results: []) {
        [unowned self] _, arguments, _ in
        let action = try self.bytes(arguments[0].i32, arguments[1].i32, for: "send")
        self.listener?.deliver(action)
      })
    imports.define(
      module: "patchbay", name: "send_after",
      Function(store: store, parameters: [.i32, .i32, .i32], results: []) {
        [unowned self] _, arguments, _ in
        let action = try self.bytes(arguments[1].i32, arguments[2].i32, for: "send_after")
        try self.sendAfter(arguments[0].i32, action, key: nil)
      })
    imports.define(
      module: "patchbay", name: "send_after_keyed",
      Function(store: store, parameters: [.i32, .i32, .i32, .i32, .i32], results: []) {
        [unowned self] _, arguments, _ in
        let call = "send_after_keyed"
        let action = try self.bytes(arguments[1].i32, arguments[2].i32, for: call)
        let key = try self.bytes(arguments[3].i32, arguments[4].i32, for: call)
        try self.sendAfter(arguments[0].i32, action, key: String(decoding: key, as: UTF8.self))
      })
    imports.define(
      module: "patchbay", name: "cancel_keyed",
      Function(store: store, parameters: [.i32, .i32], results: []) {
        [unowned self] _, arguments, _ in
        let key = try self.bytes(arguments[0].i32, arguments[1].i32, for: "cancel_keyed")
        // Not again while replaying: the first time cancelled them, here and in the
        // generations a swap left running.
        guard let context = self.listener else { return }
        let text = String(decoding: key, as: UTF8.self)
        self.timers?.cancel(key: text)
        context.cancelled(key: text)
      })
    imports.define(
      module: "patchbay", name: "error",
      Function(store: store, parameters: [.i32, .i32], results: []) {
        [unowned self] _, arguments, _ in
        let text = try self.bytes(arguments[0].i32, arguments[1].i32, for: "error")
        self.listener?.report(String(decoding: text, as: UTF8.self))
      })
    imports.define(
      module: "patchbay", name: "log",
      Function(store: store, parameters: [.i32, .i32, .i32], results: []) {
        [unowned self] _, arguments, _ in
        let text = try self.bytes(arguments[1].i32, arguments[2].i32, for: "log")
        let level = pb_log_level(rawValue: min(arguments[0].i32, PB_LOG_ERROR.rawValue))
        self.listener?.log(level, String(decoding: text, as: UTF8.self))
      })
    imports.define(
      module: "patchbay", name: "resolve",
      Function(store: store, parameters: [.i32, .i32, .i32, .i32, .i32, .i32], results: [.i32]) {
        [unowned self] _, arguments in
        let text = { (at: Int) throws in
          String(
            decoding: try self.bytes(arguments[at].i32, arguments[at + 1].i32, for: "resolve"),
            as: UTF8.self)
        }
        return [.i32(try self.resolve(text(0), text(2), text(4), in: store))]
      })
    self.defineServices(in: store, into: &imports)
    self.defineStandardOutput(in: store, into: &imports)
    return imports
  }

  /// A delayed send (``WasmTimers``), filed under `key` when it has one; a trap, named, past the
  /// limit of timers.
  private func sendAfter(_ milliseconds: UInt32, _ action: [UInt8], key: String?) throws {
    guard let context = self.listener, let timers = self.timers else { return }
    // Finished in a job after the delivery's: the action is in the app queue before the timer
    // stops counting (a swap or a settle in between would otherwise miss it).
    let started = timers.start(after: milliseconds, action, key: key) { action, finished in
      context.deliver(action)
      context.executor.enqueue(finished)
    }
    guard started else {
      self.fault = "it asked the host for more than \(WasmTimers.limit) timers at once (send_after)"
      throw WasmEdgeFault()
    }
  }

  /// "patchbay.functions/1"'s resolve: the table index of a function of `signature`'s wasm type
  /// that calls the provider's function through the app, or 0 after saying why (through the
  /// instance's error, as a native plugin hears it).
  private func resolve(_ provider: String, _ name: String, _ text: String, in store: Store)
    throws -> UInt32
  {
    let key = "\(provider)\u{0}\(name)\u{0}\(text)"
    if let index = self.resolved[key] { return index }
    guard let context = self.context else { return 0 }
    func refuse(_ why: String) -> UInt32 {
      self.listener?.report("\(provider).\(name): \(why)")
      return 0
    }
    guard let resolveFunction = context.resolveFunction else {
      return refuse("this instance runs outside an app, which resolves functions.")
    }
    guard let signature = try? FunctionSignature(parsing: text),
      let type = WasmFunctionExport.wasmType(of: signature)
    else {
      return refuse(
        "'\(text)' is not a signature a WebAssembly plugin can call: it does not parse, or it "
          + "takes or returns a pointer, which means nothing in the module's memory.")
    }
    guard let table = self.table else {
      return refuse("the module exports no function table; build it with wasm-cc.")
    }
    let pointer: UnsafeRawPointer
    do {
      pointer = try resolveFunction(provider, name, text)
    } catch {
      self.listener?.report("\(error)")  // as a native plugin's resolve reports it
      return 0
    }
    let function = WasmFunctionImport.function(
      calling: pointer, signature: signature, type: type, edge: self, store: store)
    guard let index = try WasmTableGrower.append(function, of: type, to: table, in: store) else {
      return refuse("the module's function table cannot grow; link it with --growable-table.")
    }
    self.resolved[key] = index
    return index
  }

  /// `fd_write` of standard output (1) and error (2) reaches the log, a line a write, and
  /// `fd_fdstat_get` says both are terminals (so C's stdio writes them line by line); every
  /// other descriptor, and `fd_seek` and `fd_close`, answer EBADF: a plugin has no files.
  private func defineStandardOutput(in store: Store, into imports: inout Imports) {
    let badDescriptor: UInt32 = 8  // WASI's errno EBADF
    imports.define(
      module: "wasi_snapshot_preview1", name: "fd_write",
      Function(store: store, parameters: [.i32, .i32, .i32, .i32], results: [.i32]) {
        [unowned self] _, arguments in
        let (descriptor, vectors, count, written) = (
          arguments[0].i32, arguments[1].i32, arguments[2].i32, arguments[3].i32
        )
        guard descriptor == 1 || descriptor == 2 else { return [.i32(badDescriptor)] }
        var text: [UInt8] = []
        for index in 0..<min(count, 1024) {
          // An iovec: u32 base, u32 length, little-endian.
          let vector = try self.bytes(vectors &+ index &* 8, 8, for: "fd_write")
          let (base, length) = vector.withUnsafeBytes {
            (
              UInt32(littleEndian: $0.loadUnaligned(as: UInt32.self)),
              UInt32(littleEndian: $0.loadUnaligned(fromByteOffset: 4, as: UInt32.self))
            )
          }
          text += try self.bytes(base, length, for: "fd_write")
        }
        try self.store(UInt32(text.count), at: written, for: "fd_write")
        let line = String(decoding: text, as: UTF8.self)
          .trimmingCharacters(in: .newlines)
        if !line.isEmpty {
          self.listener?.log(descriptor == 2 ? PB_LOG_WARNING : PB_LOG_INFO, line)
        }
        return [.i32(0)]
      })
    imports.define(
      module: "wasi_snapshot_preview1", name: "fd_fdstat_get",
      Function(store: store, parameters: [.i32, .i32], results: [.i32]) {
        [unowned self] _, arguments in
        let (descriptor, stat) = (arguments[0].i32, arguments[1].i32)
        guard descriptor == 1 || descriptor == 2 else { return [.i32(badDescriptor)] }
        // fdstat: u8 filetype (2: a character device), u16 flags, u64 rights (6: fd_write),
        // u64 rights inherited; 24 bytes.
        var fields = [UInt8](repeating: 0, count: 24)
        fields[0] = 2
        fields[8] = 1 << 6
        try self.store(fields, at: stat, for: "fd_fdstat_get")
        return [.i32(0)]
      })
    imports.define(
      module: "wasi_snapshot_preview1", name: "fd_seek",
      Function(store: store, parameters: [.i32, .i64, .i32, .i32], results: [.i32]) { _, _ in
        [.i32(badDescriptor)]
      })
    imports.define(
      module: "wasi_snapshot_preview1", name: "fd_close",
      Function(store: store, parameters: [.i32], results: [.i32]) { _, _ in [.i32(badDescriptor)] })
  }

  /// A pb_writer's write: `count` bytes at `address` onto the output, or none (0) when they
  /// would pass its limit (the writer is then full, core.h).
  private func write(_ address: UInt32, _ count: UInt32) throws -> UInt32 {
    guard let memory = self.memory else { return 0 }
    try self.check(address, count, for: "write", in: memory)
    guard Int(count) <= self.outputLimit - self.output.count else {
      self.overflowed = true
      return 0
    }
    if count > 0 {
      memory.withUnsafeBufferPointer(offset: UInt(address), count: Int(count)) {
        self.output.append(contentsOf: $0)
      }
    }
    return count
  }

  /// A trap naming `name` unless `count` bytes at `address` are all in `memory`.
  private func check(_ address: UInt32, _ count: UInt32, for name: String, in memory: Memory)
    throws
  {
    guard UInt64(address) + UInt64(count) > UInt64(memory.byteCount) else { return }
    self.fault =
      "it called the host's \(name) with \(count) bytes at \(address), past the end of its "
      + "\(memory.byteCount)-byte memory"
    throw WasmEdgeFault()
  }

  /// `count` bytes of the guest's memory at `address`; a trap naming `name` when they are not
  /// all in it.
  func bytes(_ address: UInt32, _ count: UInt32, for name: String) throws -> [UInt8] {
    guard let memory = self.memory else { return [] }
    try self.check(address, count, for: name, in: memory)
    guard count > 0 else { return [] }
    return memory.withUnsafeBufferPointer(offset: UInt(address), count: Int(count)) { Array($0) }
  }

  /// The NUL-terminated string at `address` in the guest's memory, without its NUL; a trap
  /// naming `name` when it runs past the memory.
  func string(at address: UInt32, for name: String) throws -> [UInt8] {
    guard let memory = self.memory else { return [] }
    try self.check(address, 0, for: name, in: memory)
    let end = memory.withUnsafeBufferPointer(
      offset: UInt(address), count: memory.byteCount - Int(address)
    ) { $0.firstIndex(of: 0) }
    guard let end else {
      self.fault = "it called the host with a string at \(address) that does not end in its memory"
      throw WasmEdgeFault()
    }
    return try self.bytes(address, UInt32(end), for: name)
  }

  private func store(_ value: UInt32, at address: UInt32, for name: String) throws {
    try self.store(withUnsafeBytes(of: value.littleEndian) { Array($0) }, at: address, for: name)
  }

  func store(_ bytes: [UInt8], at address: UInt32, for name: String) throws {
    guard let memory = self.memory else { return }
    try self.check(address, UInt32(bytes.count), for: name, in: memory)
    memory.withUnsafeMutableBufferPointer(offset: UInt(address), count: bytes.count) {
      $0.copyBytes(from: bytes)
    }
  }
}

/// What a host function throws to stop the guest; the edge keeps the reason.
struct WasmEdgeFault: Error {}
