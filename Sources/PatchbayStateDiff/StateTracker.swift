import Patchbay

/// Keeps each instance's last state while `--print-changes` wants to know what actions change,
/// and says what each action changed, as lines for people. [thread-safe]
///
/// ```swift
/// let tracker = StateTracker<String>()
/// tracker.diffLines = true
/// tracker.track("counter", state: counterAt0.bytes)        // diffs start here
/// tracker.reduced("counter") { counterAt1.bytes }         // "/count: 0 → 1"
/// ```
///
/// Costs a snapshot per action while wanted, and nothing when not. (DevTools diffs off the app
/// queue, a batch at a time: `DevToolsFeed`.)
package final class StateTracker<Key: Hashable & Sendable>: Sendable {
  private struct Tracked {
    /// Each key's last state; nil while nobody wants diffs.
    var last: [Key: [UInt8]]?
    var lines = false
  }

  private let tracked = LockedValue(Tracked())

  package init() {}

  /// Whether ``reduced(_:after:)`` returns the diff as lines.
  package var diffLines: Bool {
    get { self.tracked.withValue { $0.lines } }
    set {
      self.tracked.withValue {
        $0.lines = newValue
        $0.last = newValue ? ($0.last ?? [:]) : nil
      }
    }
  }

  /// Whether states are kept (diffs are wanted).
  package var isTracking: Bool { self.tracked.withValue { $0.last != nil } }

  /// Diffs of `key` start from `state` (a new instance, or one whose schema a swap changed).
  package func track(_ key: Key, state: @autoclosure () -> [UInt8]?) {
    guard self.isTracking, let state = state() else { return }
    self.tracked.withValue { $0.last?[key] = state }
  }

  /// `key` reduced an action (`after` reads the state it left): the diff's lines, when
  /// ``diffLines`` is on.
  package func reduced(_ key: Key, after: () -> [UInt8]?) -> String? {
    guard self.isTracking, let after = after() else { return nil }
    let before = self.tracked.withValue { tracked in
      defer { tracked.last?[key] = after }
      return tracked.last?[key]
    }
    return StateDiff.lines(before: before, after: after)
  }
}
