import Patchbay
import PatchbayABI
import PatchbayLoader

/// A feature of a WebAssembly plugin, as the host calls it (``FeatureCode``): each instance
/// in a module instance of its own, and the calls that need no instance (parse, format,
/// migrate) in one more, shared and locked.
///
/// ```swift
/// let code = feature.code                             // a WasmFeatureCode for Echo.wasm
/// let (_, bytes) = code.parseAction("say(text: \"hi\")", context: context)
/// let echo = code.create(state: nil, context: context, label: nil)!
/// echo.reduce(bytes)                                   // PB_OK, run by WasmKit
/// ```
final class WasmFeatureCode: FeatureCode, @unchecked Sendable {
  let module: WasmModule
  let index: Int
  let id: String
  let limits: WasmLimits
  let hasMigrate: Bool
  let crashLabel: UnsafePointer<CChar>
  /// The module instance for the calls without an instance; made on first use.
  private let shared: LockedValue<WasmGuest?>

  init(
    module: WasmModule, index: Int, id: String, vtable: pb_feature_vtable, limits: WasmLimits,
    crashLabel: String
  ) {
    (self.module, self.index, self.id, self.limits) = (module, index, id, limits)
    self.hasMigrate = vtable.migrate != nil
    self.crashLabel = UnsafePointer(strdup(crashLabel)!)
    self.shared = LockedValue(nil)
  }

  var processor: pb_processor_desc? { nil }
  var migrates: Bool { self.hasMigrate }
  var cancelsByKey: Bool { false }

  func create(state: [UInt8]?, context: HostContext, label: CrashLabel?) -> (any PluginInstance)? {
    do {
      let timers = WasmTimers()
      let guest = try self.guest(creating: state, context: context, timers: timers)
      return WasmFeatureInstance(
        code: self, guest: guest, state: state, context: context, timers: timers)
    } catch {
      context.report(error.description)
      return nil
    }
  }

  /// A new module instance holding a new instance of this feature, from `state` (the
  /// feature's initial state when nil), its delayed sends held by `timers`; `replaying`, its
  /// create's sends and requests are dropped (a rebuild after a trap: they were heard before).
  /// Throws the reason, naming the feature.
  func guest(
    creating state: [UInt8]?, context: HostContext?, timers: WasmTimers? = nil,
    replaying: Bool = false
  ) throws(WasmFeatureError) -> WasmGuest {
    let guest: WasmGuest
    if let spare = self.module.takeSpare() {
      guest = spare
    } else {
      do { guest = try WasmGuest(self.module, limits: self.limits) } catch {
        throw WasmFeatureError("\(self.id): \(error.reason)")
      }
    }
    guest.edge.context = context
    guest.edge.timers = timers
    guest.edge.replaying = replaying
    let created: UInt32
    do {
      created = try guest.with(state ?? []) { address, length throws(WasmTrap) in
        try guest.call(
          guest.exports.create,
          [.i32(UInt32(self.index)), address, length, .i32(state == nil ? 0 : 1)])
      }
    } catch {
      throw WasmFeatureError("\(self.id): create \(error)")
    }
    guard created == 1 else {
      throw WasmFeatureError(context?.takeErrors() ?? "\(self.id): create refused, saying nothing")
    }
    return guest
  }

  func parseAction(_ text: String, context: HostContext) -> (pb_status, [UInt8]) {
    let (status, bytes) = self.withShared("parse_action", context: context) {
      guest throws(WasmTrap) in
      try guest.with(Array(text.utf8)) { address, length throws(WasmTrap) in
        try guest.collect(limit: .max) { sink throws(WasmTrap) in
          try guest.call(
            guest.exports.parseAction, [.i32(UInt32(self.index)), address, length, .i32(sink)])
        }
      }
    }
    return (status, bytes ?? [])
  }

  func formatAction(_ action: [UInt8], context: HostContext) -> (pb_status, [UInt8]) {
    let (status, bytes) = self.withShared("format_action", context: context) {
      guest throws(WasmTrap) in
      try guest.with(action) { address, length throws(WasmTrap) in
        try guest.collect(limit: .max) { sink throws(WasmTrap) in
          try guest.call(
            guest.exports.formatAction, [.i32(UInt32(self.index)), address, length, .i32(sink)])
        }
      }
    }
    return (status, bytes ?? [])
  }

  func migrate(from schema: UInt32, state: [UInt8], limit: Int, context: HostContext)
    -> (pb_status, [UInt8]?)
  {
    guard self.hasMigrate else { return (PB_ERR_UNSUPPORTED, nil) }
    return self.withShared("migrate", context: context) { guest throws(WasmTrap) in
      try guest.with(state) { address, length throws(WasmTrap) in
        try guest.collect(limit: limit) { sink throws(WasmTrap) in
          try guest.call(
            guest.exports.migrate,
            [.i32(UInt32(self.index)), .i32(schema), address, length, .i32(sink)])
        }
      }
    }
  }

  /// Runs `body` on the shared module instance, with `context` hearing its reports. A trap
  /// is reported, naming `call`, and the instance is made anew for the next call.
  private func withShared(
    _ call: String, context: HostContext,
    _ body: (WasmGuest) throws(WasmTrap) -> (pb_status, [UInt8]?)
  ) -> (pb_status, [UInt8]?) {
    self.shared.withValue { shared in
      do throws(PluginLoadError) {
        if shared == nil { shared = try WasmGuest(self.module, limits: self.limits) }
      } catch {
        context.report("\(self.id): \(error.reason)")
        return (PB_ERR_FAILED, nil)
      }
      let guest = shared!
      guest.edge.context = context
      defer { guest.edge.context = nil }
      do {
        return try body(guest)
      } catch {
        shared = nil
        context.report("\(self.id): \(call) \(error)")
        return (PB_ERR_FAILED, nil)
      }
    }
  }
}

/// Why a WebAssembly feature's instance could not be made or rebuilt, naming the feature.
struct WasmFeatureError: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}
