import Patchbay
import PatchbayEncoding
import PatchbayStateDiff
import Synchronization

/// Tells whoever watches the app (`--print-changes`, `--record`, the terminal UI, DevTools)
/// what changed, as ``AppChange``s; with diffs wanted, says what each action changed in its
/// instance's state (``StateTracker``). [thread-safe]
///
/// ```swift
/// recorder.onChange { print($0) }
/// recorder.states.diffLines = true
/// recorder.states.track(path, state: counterBytes)     // diffs start here (snapshot bytes)
/// recorder.reduced(path: path, text: "increment", source: .command) { newBytes }
/// // .action(path: "counter", text: "increment", source: .command, diff: "/count: 0 → 1")
/// ```
final class ChangeRecorder: Sendable {
  /// Who watches: set from any thread, called from the thread of each change.
  private let handler = LockedValue<(@Sendable (AppChange) -> Void)?>(nil)
  /// Each instance's last state, while diffs are wanted.
  let states = StateTracker<InstancePath>()
  /// How many swaps were published, whoever watches.
  let swaps = Atomic<Int>(0)

  func onChange(_ handler: (@Sendable (AppChange) -> Void)?) {
    self.handler.withValue { $0 = handler }
  }

  /// Whether anyone watches: when not, the app skips formatting actions for them.
  var isObserved: Bool { self.handler.withValue { $0 } != nil }

  func publish(_ change: AppChange) {
    if case .swap = change { self.swaps.add(1, ordering: .releasing) }
    self.handler.withValue { $0 }?(change)
  }

  /// An instance reduced an action: publishes it, with its diff when diffs are on (`after`
  /// reads the state the action left).
  func reduced(
    path: InstancePath, text: @autoclosure () -> String, source: AppChange.Source,
    after: () -> [UInt8]?
  ) {
    guard let handler = self.handler.withValue({ $0 }) else { return }
    let diff = self.states.reduced(path, after: after)
    handler(.action(path: path.description, text: text(), source: source, diff: diff))
  }
}
