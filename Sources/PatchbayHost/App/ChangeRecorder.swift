import Patchbay
import PatchbayAppQueue
import PatchbayConfig
import PatchbayEncoding
import PatchbayStateDiff
import Synchronization

/// Tells whoever watches the app (`--print-changes`, `--record`, the terminal UI) what
/// changed, as ``AppChange``s; with diffs wanted, says what each action changed in its
/// instance's state (``StateTracker``); and, while DevTools journals, takes each change down
/// raw (``JournalEntry``). [thread-safe]
///
/// ```swift
/// recorder.onChange { print($0) }
/// recorder.states.diffLines = true
/// recorder.states.track(path, state: counterBytes)     // diffs start here (snapshot bytes)
/// recorder.reduced(
///   bytes, path: path, text: "increment", source: .command, handle: counter,
///   implementation: generation, timing: nil
/// ) { newBytes }
/// // .action(path: "counter", text: "increment", source: .command, diff: "/count: 0 → 1")
/// ```
final class ChangeRecorder: Sendable {
  private struct Watchers {
    var handler: (@Sendable (AppChange) -> Void)?
    /// What the queue took down since DevTools last took it; nil while nobody journals.
    var journal: Journal?
    /// Who hears of failures only (a replay that looks for one): no action is formatted for it.
    var failures: (@Sendable (AppError) -> Void)?
    /// Who hears of each action before it is reduced (`--record`).
    var beforeReduce: (@Sendable (_ path: String, _ text: String, _ source: ActionSource) -> Void)?
  }

  /// Who watches, and the journal: set from any thread, read once per change on its thread.
  private let watchers = LockedValue(Watchers())
  /// Whether the journal is on, for a reduce to know before it starts whether to time itself.
  let journaling = Atomic<Bool>(false)
  /// Whether anyone hears of actions before they are reduced, read once per action.
  let hearsBeforeReduce = Atomic<Bool>(false)
  /// Each instance's last state, while diffs are wanted.
  let states = StateTracker<InstancePath>()
  /// How many swaps were published, whoever watches.
  let swaps = Atomic<Int>(0)

  func onChange(_ handler: (@Sendable (AppChange) -> Void)?) {
    self.watchers.withValue { $0.handler = handler }
  }

  func onFailure(_ handler: (@Sendable (AppError) -> Void)?) {
    self.watchers.withValue { $0.failures = handler }
  }

  func onWillReduce(
    _ handler: (@Sendable (_ path: String, _ text: String, _ source: ActionSource) -> Void)?
  ) {
    self.watchers.withValue { $0.beforeReduce = handler }
    self.hearsBeforeReduce.store(handler != nil, ordering: .relaxed)
  }

  /// `handle` is about to reduce `action`: tells who hears of that, with its text.
  func willReduce(
    _ action: [UInt8], path: InstancePath, handle: FeatureHandle, source: ActionSource
  ) {
    // An action with no text the plugin cannot decode either: it is refused, and changes
    // nothing.
    guard let handler = self.watchers.withValue({ $0.beforeReduce }),
      let text = try? handle.formatAction(action)
    else { return }
    handler(path.description, text, source)
  }

  /// Whether anyone watches: when not, the app skips formatting actions for them.
  var isObserved: Bool { self.watchers.withValue { $0.handler } != nil }

  /// Starts (an empty journal) or stops (none) taking changes down.
  func journal(_ on: Bool) {
    self.watchers.withValue { $0.journal = on ? ($0.journal ?? Journal()) : nil }
    self.journaling.store(on, ordering: .relaxed)
  }

  /// What was taken down since the last call; `spare` (emptied) takes its place.
  func takeJournal(reusing spare: Journal?) -> Journal {
    self.watchers.withValue { watchers in
      guard let taken = watchers.journal else { return Journal() }
      watchers.journal = spare ?? Journal(roomOf: taken)
      return taken
    }
  }

  /// How many entries wait to be taken.
  var journalCount: Int { self.watchers.withValue { $0.journal?.count ?? 0 } }

  func publish(_ change: AppChange) {
    if case .swap = change { self.swaps.add(1, ordering: .releasing) }
    let at = self.journaling.load(ordering: .relaxed) ? ReduceTiming.now : 0
    let (handler, failures) = self.watchers.withValue { watchers in
      watchers.journal?.changed(change, at: at)
      return (watchers.handler, watchers.failures)
    }
    handler?(change)
    if let failures, case .failure(let error) = change { failures(error) }
  }

  /// An instance reduced an action: publishes it, with its diff when diffs are on (`changed`
  /// reads the fields the action changed, when the plugin can say; `after`, the whole state
  /// it left), and takes it down when journaling (`timing`, in `implementation`).
  func reduced(
    _ action: [UInt8], path: InstancePath, text: @autoclosure () -> String,
    source: AppChange.Source, handle: FeatureHandle, implementation: Implementation,
    timing: ReduceTiming?, changed: () -> [UInt8]? = { nil }, after: () -> [UInt8]?
  ) {
    let handler = self.watchers.withValue { watchers in
      if let timing, watchers.journal != nil {
        watchers.journal?.reduced(
          action, by: handle, at: path, in: implementation, source: source, timing: timing)
      }
      return watchers.handler
    }
    guard let handler else { return }
    let diff = self.states.reduced(path, changed: changed, after: after)
    handler(.action(path: path.description, text: text(), source: source, diff: diff))
  }
}
