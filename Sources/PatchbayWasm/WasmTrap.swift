import WasmKit

/// Why a call into a WebAssembly plugin stopped before it returned: it ran out of fuel (a
/// loop that does not end), reached past its memory, hit `unreachable` (C's `abort`), or
/// handed the host a pointer past its memory. The host goes on; the instance is rebuilt.
///
/// ```swift
/// "\(trap)"   // "ran out of fuel: more than 100000000 instructions in one call (a loop that
///             //  does not end?); [limits] wasm-fuel sets the budget"
/// ```
struct WasmTrap: Error, CustomStringConvertible {
  let description: String
  /// Whether it ran out of fuel: it hung, as the watchdog would say of native code.
  let isHang: Bool

  init(words: String, isHang: Bool = false) {
    (self.description, self.isHang) = (words, isHang)
  }

  /// The trap `error` that a call under `limits` threw; `host` is the reason a host function
  /// gave, when one stopped it.
  init(_ error: any Error, limits: WasmLimits, host: String?) {
    let words = Self.words(error)
    if let host {
      self.init(words: host)
    } else if words == "out of fuel" {
      self.init(
        words: "ran out of fuel: more than \(limits.fuel) instructions in one call (a loop that "
          + "does not end?); [limits] wasm-fuel sets the budget",
        isHang: true)
    } else if words == "unreachable" {
      self.init(words: "trapped: it reached unreachable code (C's abort or a failed assert)")
    } else {
      self.init(words: "trapped: \(words)")
    }
  }

  /// WasmKit's reason for `error`, in one line: "out of fuel", "out of bounds memory access".
  static func words(_ error: any Error) -> String {
    let text = "\(error)"
    let first = text.split(separator: "\n", maxSplits: 1).first.map(String.init) ?? text
    return first.hasPrefix("Trap: ") ? String(first.dropFirst(6)) : first
  }
}
