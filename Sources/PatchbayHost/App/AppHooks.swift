import Patchbay
import PatchbayConfig

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
    /// Sees each line too, whoever handles it (DevTools' plugin histories).
    var logWatcher: (@Sendable (String, PluginLogLevel, String) -> Void)?
    var quietConditions: [@Sendable () -> Bool] = []
    var refusedSwaps: [String] = []
  }

  private let hooks = LockedValue(Hooks())

  /// Where log lines go from now on (nil: nowhere).
  func onLog(_ handler: (@Sendable (String, PluginLogLevel, String) -> Void)?) {
    self.hooks.withValue { $0.log = handler }
  }

  /// Who sees each line beside the handler, from now on (nil: nobody).
  package func watchLog(_ watcher: (@Sendable (String, PluginLogLevel, String) -> Void)?) {
    self.hooks.withValue { $0.logWatcher = watcher }
  }

  /// Whether someone reads the log (a script's stderr, the terminal UI's status line).
  package var isLogRead: Bool { self.hooks.withValue { $0.log != nil } }

  /// Hands a line to the watcher and the handler, outside the lock; false without a handler.
  @discardableResult
  package func log(_ feature: String, _ level: PluginLogLevel, _ text: String) -> Bool {
    let (log, watcher) = self.hooks.withValue { ($0.log, $0.logWatcher) }
    watcher?(feature, level, text)
    guard let log else { return false }
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

/// What watches an app, and what it waits for: its log, its changes, its swaps, the inputs
/// that will end.
extension AppRuntime {
  /// Called with each message a plugin logs (`host->log`), and each error it reports outside
  /// any call (from an effect thread): the feature's id, the level, the text. On any thread.
  public func onLog(_ handler: (@Sendable (String, PluginLogLevel, String) -> Void)?) {
    self.hooks.onLog(handler)
  }

  /// How many swaps the app has made (a script's, `--watch`'s, or a call to ``swap(_:to:)``).
  public var swapCount: Int { self.changes.swaps.load(ordering: .acquiring) }

  /// Why each swap the app refused was refused, in order (a script's, `--watch`'s, a call's,
  /// and a rebuild's that failed before there was anything to swap).
  public var swapRefusals: [String] { self.hooks.swapRefusals }

  /// A swap that could not even be tried, with why: a `--rebuild` whose build failed. A script
  /// waiting on `wait swap` ends with it at once.
  public func refuseSwap(because reason: String) {
    self.hooks.refuseSwap(reason)
  }

  /// Called with each failure the app reports (a refusal, a processor muted for NaN), on the
  /// thread that made it; unlike ``onChange(_:)``, no action is formatted for it.
  public func onFailure(_ handler: (@Sendable (AppError) -> Void)?) {
    self.changes.onFailure(handler)
  }

  /// Called with each action about to be reduced (its instance's path, its text, who sent
  /// it), on the app queue: what `--record` writes, so that an action whose reduce crashes is
  /// in the recording. Formats each action; nil stops it.
  public func onWillReduce(
    _ handler: (@Sendable (_ path: String, _ text: String, _ source: ActionSource) -> Void)?
  ) {
    self.changes.onWillReduce(handler)
  }

  /// Called after every change, on the thread that made it.
  public func onChange(_ handler: (@Sendable (AppChange) -> Void)?) {
    self.changes.onChange(handler)
  }

  /// Whether action changes carry the state diff they caused (costs a snapshot per action).
  public var tracksStateChanges: Bool {
    get { self.changes.states.diffLines }
    set {
      self.changes.states.diffLines = newValue
      self.trackEveryInstance()
    }
  }

  /// Whether the app takes each change down for DevTools (``JournalEntry``): while on, each
  /// reduce is timed and each change appended to a journal that ``takeJournal()`` empties.
  package var journaling: Bool {
    get { self.changes.journaling.load(ordering: .relaxed) }
    set { self.changes.journal(newValue) }
  }

  /// What was taken down since the last call (``Journal``); `spare`, an earlier one emptied
  /// (``Journal/empty()``), takes its place, so that the queue allocates nothing for the next.
  /// Call it on the app queue (in ``perform(_:)``) to read the instances' states as it left
  /// them.
  package func takeJournal(reusing spare: Journal? = nil) -> Journal {
    self.changes.takeJournal(reusing: spare?.count == 0 ? spare : nil)
  }

  /// How many entries wait in the journal (any thread; the queue is not asked).
  package var journalCount: Int { self.changes.journalCount }

  /// Diffs start from each instance's state now.
  private func trackEveryInstance() {
    for entry in self.executor.sync({ self.owned.instances.entries }) {
      self.changes.states.track(entry.path, state: try? entry.handle.snapshot())
    }
  }

  /// Adds something ``isQuiet`` (and so ``settle(timeout:)``) waits for: an input that will
  /// end, such as a MIDI file being read. [thread-safe]
  public func addQuietCondition(_ condition: @escaping @Sendable () -> Bool) {
    self.hooks.addQuietCondition(condition)
  }
}
