import Patchbay
import PatchbayEncoding
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
  private let handler = LockedValue<(@Sendable (AppChange) -> Void)?>(nil)
  /// The snapshot bytes of each instance after its last action; nil while diffs are off.
  private let lastStates = LockedValue<[InstancePath: [UInt8]]?>(nil)

  func onChange(_ handler: (@Sendable (AppChange) -> Void)?) {
    self.handler.value = handler
  }

  /// Whether anyone watches: when not, the app skips formatting actions for them.
  var isObserved: Bool { self.handler.value != nil }

  /// How many swaps were published, whoever watches.
  let swaps = Atomic<Int>(0)

  func publish(_ change: AppChange) {
    if case .swap = change { self.swaps.add(1, ordering: .releasing) }
    self.handler.value?(change)
  }

  /// Whether action changes carry the state diff they caused (costs a snapshot per action).
  var tracksStateChanges: Bool {
    get { self.lastStates.withValue { $0 != nil } }
    set { self.lastStates.withValue { $0 = newValue ? ($0 ?? [:]) : nil } }
  }

  /// Diffs of `path` start from `state` (a new instance, or one whose schema a swap changed).
  func track(_ path: InstancePath, state: @autoclosure () -> [UInt8]?) {
    guard self.tracksStateChanges, let state = state() else { return }
    self.lastStates.withValue { $0?[path] = state }
  }

  /// An instance reduced an action: publishes it, with its diff when diffs are on (`after`
  /// reads the state the action left).
  func reduced(
    path: InstancePath, text: @autoclosure () -> String, source: AppChange.Source,
    after: () -> [UInt8]?
  ) {
    guard let handler = self.handler.value else { return }
    var diff: String?
    if self.tracksStateChanges, let after = after() {
      let before = self.lastStates.withValue { states in
        defer { states?[path] = after }
        return states?[path]
      }
      diff = StateDiff.lines(before: before, after: after)
    }
    handler(.action(path: path.description, text: text(), source: source, diff: diff))
  }
}
