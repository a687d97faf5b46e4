import Patchbay

/// Keeps each instance's last state while `--print-changes` wants to know what actions change,
/// and says what each action changed, as lines for people. [thread-safe]
///
/// ```swift
/// let tracker = StateTracker<String>()
/// tracker.diffLines = true
/// tracker.track("counter", state: counterAt0.bytes)        // diffs start here
/// tracker.reduced("counter") { counterAt1.bytes }         // "/count: 0 → 1"
/// tracker.reduced("counter", changed: { countIs2.bytes }) { nil }   // "/count: 1 → 2"
/// ```
///
/// Costs a snapshot per action while wanted, and nothing when not; or, from a plugin that says
/// which fields an action changed (`changed_fields`, ABI 2.7), those fields only: the state is
/// then kept a field at a time, and a change replaces its fields. (DevTools diffs off the app
/// queue, a batch at a time: `DevToolsFeed`.)
package final class StateTracker<Key: Hashable & Sendable>: Sendable {
  /// An instance's last state: its snapshot's bytes, or, once its plugin said what an action
  /// changed, the top-level fields of its record, each its own bytes.
  private enum Last {
    case whole([UInt8])
    case fields([String: [UInt8]], order: [String])

    /// The state as one record's bytes (a plugin that said what changed took a snapshot).
    var bytes: [UInt8] {
      switch self {
      case .whole(let bytes): return bytes
      case .fields(let fields, let order):
        var bytes: [UInt8] = [UInt8(ascii: "r")]
        bytes.append(contentsOf: withUnsafeBytes(of: UInt32(order.count).littleEndian, Array.init))
        for name in order {
          bytes.append(
            contentsOf: withUnsafeBytes(of: UInt16(name.utf8.count).littleEndian, Array.init))
          bytes.append(contentsOf: name.utf8)
          bytes.append(contentsOf: fields[name] ?? [])
        }
        return bytes
      }
    }
  }

  private struct Tracked {
    /// Each key's last state; nil while nobody wants diffs.
    var last: [Key: Last]?
    var lines = false
  }

  private let tracked = LockedValue(Tracked())

  package init() {}

  /// Whether ``reduced(_:changed:after:)`` returns the diff as lines.
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
    self.tracked.withValue { $0.last?[key] = .whole(state) }
  }

  /// `key` reduced an action: the diff's lines, when ``diffLines`` is on. `changed` reads the
  /// record of the fields the action changed, when the plugin can say (nil: it cannot);
  /// `after`, the whole state it left.
  package func reduced(
    _ key: Key, changed: () -> [UInt8]? = { nil }, after: () -> [UInt8]?
  ) -> String? {
    guard self.isTracking else { return nil }
    if let record = changed(), let fields = StateDiff.fields(of: record),
      let befores = self.replace(fields, of: key)
    {
      return zip(fields, befores).map { field, before in
        StateDiff.lines(before: before, after: field.value, path: "/\(field.name)")
      }.filter { !$0.isEmpty }.joined(separator: "\n")
    }
    guard let after = after() else { return nil }
    let before = self.tracked.withValue { tracked in
      defer { tracked.last?[key] = .whole(after) }
      return tracked.last?[key]?.bytes
    }
    return StateDiff.lines(before: before, after: after)
  }

  /// Puts `fields` in place of their values in `key`'s last state, and returns what each was
  /// (nil: a new field); nil when the last state is not a record (take a whole one instead).
  private func replace(_ fields: [(name: String, value: [UInt8])], of key: Key) -> [[UInt8]?]? {
    self.tracked.withValue { tracked -> [[UInt8]?]? in
      // Taken out while it changes, so that no second reference copies its fields.
      guard var last = tracked.last?.removeValue(forKey: key) else { return nil }
      defer { tracked.last?[key] = last }
      if case .whole(let bytes) = last {
        guard let split = StateDiff.fields(of: bytes) else { return nil }
        last = .fields(
          Dictionary(split, uniquingKeysWith: { $1 }), order: split.map(\.name))
      }
      guard case .fields(var values, var order) = last else { return nil }
      last = .whole([])
      let befores = fields.map { field -> [UInt8]? in
        let before = values.updateValue(field.value, forKey: field.name)
        if before == nil { order.append(field.name) }
        return before
      }
      last = .fields(values, order: order)
      return befores
    }
  }
}
