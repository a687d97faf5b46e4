import Patchbay

/// What is hooked into an app from any thread: where plugins' log lines go, the inputs
/// ``AppRuntime/isQuiet`` waits for, and why swaps were refused. One lock, owned by the app:
/// each is set or read from whichever thread (a plugin's effect logs, a script waits on a
/// swap), never across a call into a plugin.
///
/// ```swift
/// hooks.onLog { feature, level, text in print(feature, text) }
/// hooks.log("dev.patchbay.counter", .info, "hello")     // false when nobody listens
/// ```
package final class AppHooks: Sendable {
  private struct Hooks {
    var log: (@Sendable (String, PluginLogLevel, String) -> Void)?
    var quietConditions: [@Sendable () -> Bool] = []
    var refusedSwaps: [String] = []
  }

  private let hooks = LockedValue(Hooks())

  /// Where log lines go from now on (nil: nowhere).
  func onLog(_ handler: (@Sendable (String, PluginLogLevel, String) -> Void)?) {
    self.hooks.withValue { $0.log = handler }
  }

  /// Hands a line to the log handler, outside the lock; false when there is none.
  @discardableResult
  package func log(_ feature: String, _ level: PluginLogLevel, _ text: String) -> Bool {
    guard let log = self.hooks.withValue({ $0.log }) else { return false }
    log(feature, level, text)
    return true
  }

  func addQuietCondition(_ condition: @escaping @Sendable () -> Bool) {
    self.hooks.withValue { $0.quietConditions.append(condition) }
  }

  /// Whether every input that will end has ended (each condition is checked outside the lock).
  var inputsHaveEnded: Bool {
    self.hooks.withValue { $0.quietConditions }.allSatisfy { $0() }
  }

  func refuseSwap(_ reason: String) {
    self.hooks.withValue { $0.refusedSwaps.append(reason) }
  }

  var swapRefusals: [String] { self.hooks.withValue { $0.refusedSwaps } }
}
