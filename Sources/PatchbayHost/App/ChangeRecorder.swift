import Patchbay
import PatchbayEncoding
import PatchbayStateDiff
import Synchronization

/// Tells whoever watches the app (`--print-changes`, `--record`, the terminal UI) what
/// changed, as ``AppChange``s; with diffs on, keeps each instance's last state to say what an
/// action changed in it. [thread-safe]
///
/// ```swift
/// recorder.onChange { print($0) }
/// recorder.tracksStateChanges = true
/// recorder.track(path, state: counterBytes)     // diffs start here (snapshot bytes)
/// recorder.reduced(path: path, text: "increment", source: .command) { newBytes }
/// // .action(path: "counter", text: "increment", source: .command, diff: "/count: 0 → 1")
/// ```
final class ChangeRecorder: Sendable {
  /// Who watches, and the snapshot bytes of each instance after its last action (nil while
  /// diffs are off). The recorder's one lock: a watcher is set from any thread, and effects'
  /// actions are published from theirs.
  private let watch = LockedValue<Watch>(Watch())

  private struct Watch {
    var handler: (@Sendable (AppChange) -> Void)?
    var lastStates: [InstancePath: [UInt8]]?
  }

  func onChange(_ handler: (@Sendable (AppChange) -> Void)?) {
    self.watch.withValue { $0.handler = handler }
  }

  private var handler: (@Sendable (AppChange) -> Void)? { self.watch.withValue { $0.handler } }

  /// Whether anyone watches: when not, the app skips formatting actions for them.
  var isObserved: Bool { self.handler != nil }

  /// How many swaps were published, whoever watches.
  let swaps = Atomic<Int>(0)

  func publish(_ change: AppChange) {
    if case .swap = change { self.swaps.add(1, ordering: .releasing) }
    self.handler?(change)
  }

  /// Whether action changes carry the state diff they caused (costs a snapshot per action).
  var tracksStateChanges: Bool {
    get { self.watch.withValue { $0.lastStates != nil } }
    set { self.watch.withValue { $0.lastStates = newValue ? ($0.lastStates ?? [:]) : nil } }
  }

  /// Diffs of `path` start from `state` (a new instance, or one whose schema a swap changed).
  func track(_ path: InstancePath, state: @autoclosure () -> [UInt8]?) {
    guard self.tracksStateChanges, let state = state() else { return }
    self.watch.withValue { $0.lastStates?[path] = state }
  }

  /// An instance reduced an action: publishes it, with its diff when diffs are on (`after`
  /// reads the state the action left).
  func reduced(
    path: InstancePath, text: @autoclosure () -> String, source: AppChange.Source,
    after: () -> [UInt8]?
  ) {
    guard let handler = self.handler else { return }
    var diff: String?
    if self.tracksStateChanges, let after = after() {
      let before = self.watch.withValue { watch in
        defer { watch.lastStates?[path] = after }
        return watch.lastStates?[path]
      }
      diff = StateDiff.lines(before: before, after: after)
    }
    handler(.action(path: path.description, text: text(), source: source, diff: diff))
  }
}
