import Foundation
import PatchbayABI
import PatchbayLoader
import WasmKit

/// The host's half of the services a module imports only when its source asks for them
/// (`Sources/PatchbayWasmGuest/services/`): each call reaches the instance's ``HostContext``,
/// as the native service's does, with the strings and values copied out of the module's
/// memory. A module that imports one must be granted it (``WasmCapability``); the clock needs
/// no grant.
extension WasmEdge {
  func defineServices(in store: Store, into imports: inout Imports) {
    // "patchbay.clock/1": CLOCK_MONOTONIC in nanoseconds, as the native service's now_ns.
    imports.define(
      module: "patchbay", name: "clock_now",
      Function(store: store, parameters: [], results: [.i64]) { _, _ in
        [.i64(monotonicNanoseconds())]
      })
    // "patchbay.midi/1": the channels the instance listens to. Kept in a replay too: it is
    // the instance's, not the call's.
    imports.define(
      module: "patchbay", name: "midi_listen",
      Function(store: store, parameters: [.i32], results: []) { [unowned self] _, arguments in
        self.context?.midiChannels.store(
          UInt16(truncatingIfNeeded: arguments[0].i32), ordering: .relaxed)
        return []
      })
    // "patchbay.navigation/1": kind, node, its length, state, its length, whether there is one.
    imports.define(
      module: "patchbay", name: "navigate",
      Function(store: store, parameters: Array(repeating: .i32, count: 6), results: []) {
        [unowned self] _, arguments in
        let node = String(
          decoding: try self.bytes(arguments[1].i32, arguments[2].i32, for: "navigate"),
          as: UTF8.self)
        let state =
          arguments[5].i32 == 0
          ? nil : try self.bytes(arguments[3].i32, arguments[4].i32, for: "navigate")
        guard let listener = self.listener else { return [] }
        let kind = pb_navigation_kind(rawValue: arguments[0].i32)
        if let request = NavigationRequest(kind: kind, node: node, state: state) {
          listener.navigate(request)
        } else {
          listener.log(PB_LOG_ERROR, "unknown navigation kind \(arguments[0].i32) ignored")
        }
        return []
      })
    self.defineShared(in: store, into: &imports)
  }

  /// "patchbay.shared/1": publish, hold and write take (name, length, value, length);
  /// subscribe takes (name, length, action, length, whether there is an action). Each answers
  /// a pb_status. In a replay they answer PB_OK and ask nothing: the app heard them before.
  private func defineShared(in store: Store, into imports: inout Imports) {
    let valued: [(String, (String, [UInt8]) -> SharedRequest)] = [
      ("shared_publish", { .publish(name: $0, value: $1) }),
      ("shared_hold", { .hold(name: $0, initial: $1) }),
      ("shared_write", { .write(name: $0, value: $1) }),
    ]
    for (name, request) in valued {
      imports.define(
        module: "patchbay", name: name,
        Function(store: store, parameters: [.i32, .i32, .i32, .i32], results: [.i32]) {
          [unowned self] _, arguments in
          let key = try self.text(arguments[0].i32, arguments[1].i32, for: name)
          let value = try self.bytes(arguments[2].i32, arguments[3].i32, for: name)
          return [.i32(self.share(request(key, value)))]
        })
    }
    imports.define(
      module: "patchbay", name: "shared_subscribe",
      Function(store: store, parameters: Array(repeating: .i32, count: 5), results: [.i32]) {
        [unowned self] _, arguments in
        let key = try self.text(arguments[0].i32, arguments[1].i32, for: "shared_subscribe")
        let action =
          arguments[4].i32 == 0
          ? nil : try self.text(arguments[2].i32, arguments[3].i32, for: "shared_subscribe")
        return [.i32(self.share(.subscribe(name: key, action: action)))]
      })
  }

  private func share(_ request: SharedRequest) -> UInt32 {
    guard let listener = self.listener else { return PB_OK.rawValue }
    return listener.share(request).rawValue
  }

  /// `count` bytes at `address` as UTF-8 text; a trap naming `name` when they are not all in
  /// the module's memory.
  private func text(_ address: UInt32, _ count: UInt32, for name: String) throws -> String {
    String(decoding: try self.bytes(address, count, for: name), as: UTF8.self)
  }
}
