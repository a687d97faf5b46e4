import Patchbay

/// Keeps each instance's last state, while anyone wants to know what actions change, and says
/// what each action changed: as lines for people (`--print-changes`), as JSON Pointers and
/// values for a program (DevTools), or both. [thread-safe]
///
/// ```swift
/// let tracker = StateTracker<String>()
/// tracker.diffLines = true
/// tracker.track("counter", state: counterAt0.bytes)        // diffs start here
/// tracker.reduced("counter") { counterAt1.bytes }         // "/count: 0 → 1"
/// ```
///
/// Costs a snapshot per action while either is wanted, and nothing when neither is.
package final class StateTracker<Key: Hashable & Sendable>: Sendable {
  private struct Tracked {
    /// Each key's last state; nil while nobody wants diffs.
    var last: [Key: [UInt8]]?
    var lines = false
    var changes: (@Sendable (Key, [StateChange]) -> Void)?

    mutating func update() {
      self.last = self.lines || self.changes != nil ? (self.last ?? [:]) : nil
    }
  }

  private let tracked = LockedValue(Tracked())

  package init() {}

  /// Whether ``reduced(_:after:)`` returns the diff as lines.
  package var diffLines: Bool {
    get { self.tracked.withValue { $0.lines } }
    set {
      self.tracked.withValue {
        $0.lines = newValue
        $0.update()
      }
    }
  }

  /// Called by ``reduced(_:after:)`` with what changed, when something did; nil stops it.
  package func onChanges(_ handler: (@Sendable (Key, [StateChange]) -> Void)?) {
    self.tracked.withValue {
      $0.changes = handler
      $0.update()
    }
  }

  /// Whether states are kept (either kind of diff is wanted).
  package var isTracking: Bool { self.tracked.withValue { $0.last != nil } }

  /// Diffs of `key` start from `state` (a new instance, or one whose schema a swap changed).
  package func track(_ key: Key, state: @autoclosure () -> [UInt8]?) {
    guard self.isTracking, let state = state() else { return }
    self.tracked.withValue { $0.last?[key] = state }
  }

  /// `key` reduced an action (`after` reads the state it left): tells the changes handler
  /// what changed, and returns the diff's lines when ``diffLines`` is on.
  package func reduced(_ key: Key, after: () -> [UInt8]?) -> String? {
    guard self.isTracking, let after = after() else { return nil }
    let (before, lines, handler) = self.tracked.withValue { tracked in
      defer { tracked.last?[key] = after }
      return (tracked.last?[key], tracked.lines, tracked.changes)
    }
    if let handler, let changes = StateDiff.changes(before: before, after: after),
      !changes.isEmpty
    {
      handler(key, changes)
    }
    return lines ? StateDiff.lines(before: before, after: after) : nil
  }
}
