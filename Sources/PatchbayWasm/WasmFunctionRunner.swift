import Foundation
import Patchbay
import PatchbayLoader
import WasmKit

/// The module instance a WebAssembly plugin's exported functions run in: one per loaded
/// generation, made on the first call, one call at a time (a lock). Each call gets the
/// plugin's fuel and memory limits; a call that traps returns zero, and the next call runs in
/// a fresh module instance.
///
/// ```swift
/// let runner = WasmFunctionRunner(module: module, limits: limits)
/// let frequency = runner.run(
///   "note_frequency", index: 3, type: FunctionType(parameters: [.i32, .f64], results: [.f64]),
///   prepare: { _ in [.i32(69), .f64(440.0.bitPattern)] },   // copy any bytes in here
///   finish: { _, results in results.first })                // and any text out here
/// // .f64(440.0), or nil after a trap
/// ```
///
/// Why a call trapped goes to the caller that watches (``FunctionFaults``: `patchbay call`
/// and scripts' `call` say it), or else to standard error, one line, as a plugin's logs do
/// outside an app.
final class WasmFunctionRunner: FunctionFaults, @unchecked Sendable {
  let module: WasmModule
  let limits: WasmLimits
  private let state = LockedValue(State())

  private struct State {
    var guest: WasmGuest?
    /// A caller per function type, made in `guest`'s store.
    var callers: [FunctionType: WasmIndirectCaller] = [:]
    /// The threads watching their calls, and why a call of theirs failed.
    var watched: [pthread_t: String?] = [:]
  }

  init(module: WasmModule, limits: WasmLimits) {
    (self.module, self.limits) = (module, limits)
  }

  /// Runs the guest's function at table `index`, of wasm type `type`: `prepare` puts the
  /// arguments in the guest (it gets the guest, and returns the values to call with), and
  /// `finish` reads back what it wrote. nil when the call failed (reported as said above).
  func run<T>(
    _ name: String, index: UInt32, type: FunctionType,
    prepare: (WasmGuest) throws(WasmTrap) -> [Value],
    finish: (WasmGuest, [Value]) throws(WasmTrap) -> T
  ) -> T? {
    self.state.withValue { state in
      do throws(WasmTrap) {
        let guest = try self.guest(in: &state)
        let caller: WasmIndirectCaller
        if let made = state.callers[type] {
          caller = made
        } else {
          guard let table = guest.table else {
            throw WasmTrap(words: "it exports no function table (link it with wasm-cc)")
          }
          do {
            caller = try WasmIndirectCaller(type: type, table: table, store: guest.store)
          } catch {
            throw WasmTrap(words: "no caller for \(type) could be made: \(WasmTrap.words(error))")
          }
          state.callers[type] = caller
        }
        let arguments = try prepare(guest) + [.i32(index)]
        return try finish(guest, try guest.invoke(caller.function, arguments))
      } catch {
        // The module instance is not to be called again after a trap: the next call makes one.
        state.guest = nil
        state.callers = [:]
        let words = "\(self.module.file): function \(name) \(error)"
        if state.watched.keys.contains(pthread_self()) {
          state.watched[pthread_self()] = words
        } else {
          FileHandle.standardError.write(Data("patchbay: \(words); it returned zero\n".utf8))
        }
        return nil
      }
    }
  }

  private func guest(in state: inout State) throws(WasmTrap) -> WasmGuest {
    if let guest = state.guest { return guest }
    let guest: WasmGuest
    if let spare = self.module.takeSpare() {
      guest = spare
    } else {
      do {
        guest = try WasmGuest(self.module, limits: self.limits)
      } catch {
        throw WasmTrap(words: "could not start: \(error.reason)")
      }
    }
    state.guest = guest
    return guest
  }

  func watch() { self.state.withValue { $0.watched[pthread_self()] = .some(nil) } }

  func endWatch() -> String? {
    self.state.withValue { $0.watched.removeValue(forKey: pthread_self()) ?? nil }
  }
}
