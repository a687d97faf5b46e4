import PatchbayABI
import PatchbayLoader
import WasmKit

/// One instance of a WebAssembly feature: a module instance of its own, holding it. Called on
/// the app queue only, one call at a time (``PluginInstance``).
///
/// A call that traps (a spin out of fuel, a reach past its memory) fails with one line
/// naming it, and the instance goes on from the state it had before the call: the host
/// keeps a checkpoint (a snapshot) and the actions reduced since, and on a trap makes a new
/// module instance from the checkpoint and reduces the actions again, what they send dropped
/// (a reducer is deterministic: `patchbay validate` checks it). A checkpoint is taken every
/// ``checkpointEvery`` actions, so a reduce costs one snapshot in that many.
final class WasmFeatureInstance: PluginInstance {
  let code: WasmFeatureCode
  private var guest: WasmGuest?
  private let context: HostContext
  /// Its delayed sends: they outlive a rebuild after a trap.
  private let timers: WasmTimers
  /// The state the actions in ``since`` were reduced on; nil: the initial state.
  private var checkpoint: [UInt8]?
  private var since: [[UInt8]] = []
  /// The report of the last trap, until the host takes it.
  private var crash: String?
  /// Why it cannot run any more: its rebuild failed.
  private var broken: String?

  static let checkpointEvery = 64

  init(
    code: WasmFeatureCode, guest: WasmGuest, state: [UInt8]?, context: HostContext,
    timers: WasmTimers
  ) {
    (self.code, self.guest, self.checkpoint, self.context) = (code, guest, state, context)
    self.timers = timers
  }

  func reduce(_ action: [UInt8]) -> pb_status {
    let status = self.run("reduce") { guest throws(WasmTrap) in
      pb_status(
        rawValue: try guest.with(action) { address, length throws(WasmTrap) in
          try guest.call(guest.exports.reduce, [address, length])
        })
    }
    guard let status else { return PB_ERR_FAILED }
    if status == PB_OK { self.reduced(action) }
    return status
  }

  func snapshot(limit: Int) -> (pb_status, [UInt8]?) {
    self.written("snapshot", limit: limit) { $0.exports.snapshot }
  }

  func changedFields(limit: Int) -> (pb_status, [UInt8]?) {
    self.written("changed_fields", limit: limit) { $0.exports.changedFields }
  }

  func render(limit: Int) -> (pb_status, [UInt8]?) {
    self.written("render", limit: limit) { $0.exports.render }
  }

  /// The guest's own count (a C plugin's), and its delayed sends not yet sent.
  var runningEffects: Int {
    let guestCount = Int(
      self.run("running_effects") { guest throws(WasmTrap) in
        try guest.call(guest.exports.runningEffects)
      } ?? 0)
    return guestCount + self.timers.count
  }

  var effectCount: Int? { self.runningEffects }

  func cancelEffects() {
    self.timers.cancelAll()
    _ = self.run("cancel_effects") { guest throws(WasmTrap) in
      try guest.call(guest.exports.cancelEffects)
    }
  }

  /// A wasm instance's effects are the timers the host holds for it, some filed under a key
  /// (the Embedded Swift SDK's `.cancellable(id:)`): after a swap they go on in the earlier
  /// generation until they fire, until the new code cancels their key, or until the whole
  /// instance's effects are cancelled.
  var cancelsByKey: Bool { true }

  func cancelEffects(key: String) { self.timers.cancel(key: key) }

  func destroy() {
    self.timers.cancelAll()
    _ = self.run("destroy") { guest throws(WasmTrap) in try guest.call(guest.exports.destroy) }
    self.guest = nil
  }

  /// How many calls trapped.
  private(set) var crashes = 0

  func takeCrash() -> String? {
    defer { self.crash = nil }
    return self.crash
  }

  func createProcessor(_ config: pb_processor_config, offline: Bool) -> UnsafeMutableRawPointer? {
    nil
  }
  func writeParameters(_ block: UnsafeMutableRawPointer) {}
  func eventAction(_ event: pb_processor_event) -> (pb_status, [UInt8]) { (PB_ERR_UNSUPPORTED, []) }

  // MARK: - Calls, traps and the checkpoint

  /// What a writer call (`snapshot`, `render`, `changed_fields`) wrote, up to `limit` bytes.
  private func written(
    _ name: String, limit: Int, _ function: @escaping (WasmGuest) -> Function
  ) -> (pb_status, [UInt8]?) {
    self.run(name) { guest throws(WasmTrap) in
      try guest.collect(limit: limit) { sink throws(WasmTrap) in
        try guest.call(function(guest), [.i32(sink)])
      }
    } ?? (PB_ERR_FAILED, nil)
  }

  /// Runs `body` on the module instance; nil after a trap, which is reported (naming `name`)
  /// and after which the instance is rebuilt from before the call.
  private func run<T>(_ name: String, _ body: (WasmGuest) throws(WasmTrap) -> T) -> T? {
    if let broken {
      self.context.report(broken)
      return nil
    }
    guard let guest = self.guest else { return nil }
    let mark = self.timers.mark
    do {
      return try body(guest)
    } catch {
      self.timers.cancel(from: mark)  // what the failed call asked for, it did not ask
      let report =
        "\(self.code.id) (\(self.code.module.file)): \(name) \(error). The instance goes on "
        + "from its state before the call."
      (self.crash, self.crashes) = (report, self.crashes + 1)
      self.context.report(report)
      self.rebuild()
      return nil
    }
  }

  /// Notes a reduced action, and takes a checkpoint every ``checkpointEvery`` of them. A
  /// snapshot that traps leaves the module instance unfit: it is rebuilt, the action kept.
  private func reduced(_ action: [UInt8]) {
    self.since.append(action)
    guard self.since.count >= Self.checkpointEvery, let guest = self.guest else { return }
    do {
      let (status, bytes) = try guest.collect(limit: .max) { sink throws(WasmTrap) in
        try guest.call(guest.exports.snapshot, [.i32(sink)])
      }
      if status == PB_OK, let bytes { (self.checkpoint, self.since) = (bytes, []) }
    } catch {
      self.rebuild()
    }
  }

  /// A new module instance from the checkpoint, the actions since reduced again (their sends
  /// dropped). When that fails, the instance is broken and says why from then on.
  private func rebuild() {
    self.guest = nil
    do {
      // What create and the actions asked of the host, they asked the first time.
      let guest = try self.code.guest(
        creating: self.checkpoint, context: self.context, timers: self.timers, replaying: true)
      for action in self.since {
        let status = try guest.with(action) { address, length throws(WasmTrap) in
          try guest.call(guest.exports.reduce, [address, length])
        }
        guard status == PB_OK.rawValue else {
          throw WasmFeatureError("an action reduced before did not reduce again")
        }
      }
      guest.edge.replaying = false
      self.guest = guest
    } catch {
      self.broken =
        "\(self.code.id) (\(self.code.module.file)) cannot go on: rebuilding it after a trap "
        + "failed: \(error). Swap in a fixed build."
    }
  }
}
