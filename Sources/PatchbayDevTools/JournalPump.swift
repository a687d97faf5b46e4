import Dispatch
import Foundation
import Patchbay
import PatchbayAppQueue
import PatchbayConfig
import PatchbayHost
import PatchbayStateDiff
import Synchronization

/// Moves an app's journal (``JournalEntry``) into a ``DevToolsFeed``, a batch at a time, on a
/// thread of its own: what keeps DevTools off the app queue's back. Per action the queue only
/// times the reduce and appends the entry; here, once per batch, one job on the queue takes
/// the entries and snapshots each instance they touched. Off the queue, each action's text
/// comes from those already seen (a second job formats the new ones, with the generation that
/// reduced them), each state is diffed against the one before, and the entries are written.
///
/// A batch is taken every 1/30 s while changes come, or later when its job took long (a
/// 50 MB state): the job's share of the queue stays under ``queueShare``. A quiet app costs
/// nothing. Actions of one instance in one batch share one diff, on the last of them: exact
/// at the pace a person acts, coalesced at a thousand a second.
///
/// ```swift
/// let pump = JournalPump(app: app, feed: feed)
/// pump.start()
/// await feed.flush()      // what happened so far is in the timeline
/// pump.stop()
/// ```
///
/// `@unchecked Sendable`: `texts` and `states` are touched only by the pump's thread (and in
/// the queue job it waits for); the rest is immutable, atomic, or a semaphore.
final class JournalPump: @unchecked Sendable {
  private weak var app: AppRuntime?
  private let feed: DevToolsFeed
  private let wake = DispatchSemaphore(value: 0)
  private let stopping = Atomic<Bool>(false)
  /// Texts already formatted, by the generation that reduced the action and its bytes.
  private var texts: [TextKey: String] = [:]
  /// Each instance's state as the last batch left it: what the next diff starts from.
  private var states: [InstancePath: [UInt8]] = [:]
  /// Seconds until the next batch.
  private var interval = JournalPump.shortestInterval
  /// Nanoseconds the batches' jobs have taken on the app queue.
  let spentOnQueue = Atomic<UInt64>(0)

  static let shortestInterval = 1.0 / 30
  /// The most of the app queue's time the batches' jobs take.
  static let queueShare = 0.02
  static let keptTexts = 4_096

  init(app: AppRuntime, feed: DevToolsFeed) {
    self.app = app
    self.feed = feed
  }

  /// Starts journaling the app, from its states now, and taking batches.
  func start() {
    guard let app = self.app else { return }
    app.perform {
      app.journaling = true
      for path in app.paths {
        guard let key = InstancePath(parsing: path), let handle = try? app.instance(path),
          let state = try? handle.snapshot()
        else { continue }
        self.states[key] = state
      }
    }
    let thread = Thread { [self] in self.run() }
    thread.name = "patchbay-devtools-journal"
    thread.start()
  }

  /// Stops journaling; a batch under way ends first.
  func stop() {
    guard !self.stopping.exchange(true, ordering: .acquiringAndReleasing) else { return }
    self.app?.journaling = false
    self.wake.signal()
  }

  /// Takes the next batch now, not at its time (``DevToolsFeed/flush()``).
  func hurry() { self.wake.signal() }

  private func run() {
    while !self.stopping.load(ordering: .acquiring) {
      _ = self.wake.wait(timeout: .now() + self.interval)
      let waiting = self.feed.takeFlushes()
      self.takeBatch()
      waiting.forEach { $0.resume() }
    }
    self.feed.pumpStopped()
  }

  /// One batch: the queue's job, then the texts (a second job formats those not seen yet),
  /// the diffs and the entries.
  private func takeBatch() {
    guard let app = self.app else { return self.stopping.store(true, ordering: .releasing) }
    var spent: UInt64 = 0
    var batch = app.perform { () -> Batch in
      let began = ReduceTiming.now
      defer { spent += ReduceTiming.now - began }
      return Self.read(app.takeJournal())
    }
    guard !batch.entries.isEmpty else { return self.paced(by: spent) }
    var unformatted: [(index: Int, action: ReducedAction, key: TextKey)] = []
    for (index, entry) in batch.entries.enumerated() {
      guard case .reduced(let action) = entry else { continue }
      let key = TextKey(generation: action.generation, action: action.action)
      if let text = self.texts[key] {
        batch.texts[index] = text
      } else {
        unformatted.append((index, action, key))
      }
    }
    if !unformatted.isEmpty {
      let texts = app.perform {
        let began = ReduceTiming.now
        defer { spent += ReduceTiming.now - began }
        return unformatted.map { $0.action.text() }
      }
      if self.texts.count + texts.count > Self.keptTexts { self.texts.removeAll() }
      for (unformatted, text) in zip(unformatted, texts) {
        self.texts[unformatted.key] = text
        batch.texts[unformatted.index] = text
      }
    }
    self.paced(by: spent)
    self.write(batch)
  }

  /// The next batch comes after `spent` is at most ``queueShare`` of the time between.
  private func paced(by spent: UInt64) {
    self.spentOnQueue.add(spent, ordering: .relaxed)
    self.interval = max(Self.shortestInterval, Double(spent) / 1e9 / Self.queueShare)
  }

  /// The plugin file of the instance a failure names (its history shows the failure).
  private func plugin(failing change: AppChange) -> String? {
    guard case .failure(let error) = change, case .failed(let path, _) = error.reason else {
      return nil
    }
    return (try? self.app?.instance(path))?.feature.plugin.path
  }

  private struct TextKey: Hashable {
    let generation: AnyObject
    let action: [UInt8]
    static func == (a: TextKey, b: TextKey) -> Bool {
      a.generation === b.generation && a.action == b.action
    }
    func hash(into hasher: inout Hasher) {
      hasher.combine(ObjectIdentifier(self.generation))
      hasher.combine(self.action)
    }
  }

  private struct Batch {
    var entries: [JournalEntry]
    /// Each reduced entry's text, by index.
    var texts: [Int: String] = [:]
    /// The states the batch's actions left, by instance, with the index of the last action.
    var states: [InstancePath: (last: Int, count: Int, state: [UInt8]?)] = [:]
  }

  /// On the app queue: each touched instance's state now.
  private static func read(_ entries: [JournalEntry]) -> Batch {
    var batch = Batch(entries: entries)
    var handles: [InstancePath: FeatureHandle] = [:]
    for (index, entry) in entries.enumerated() {
      guard case .reduced(let action) = entry else { continue }
      handles[action.path] = action.handle
      batch.states[action.path] = (index, (batch.states[action.path]?.count ?? 0) + 1, nil)
    }
    for (path, handle) in handles {
      batch.states[path]?.state = try? handle.snapshot()
    }
    return batch
  }

  /// Off the queue: the entries, each instance's diff on its last action.
  private func write(_ batch: Batch) {
    for (index, entry) in batch.entries.enumerated() {
      switch entry {
      case .reduced(let action):
        var changes: [StateChange]?
        var folded = 0
        if let touched = batch.states[action.path], touched.last == index,
          let after = touched.state
        {
          changes = StateDiff.changes(before: self.states[action.path], after: after) ?? []
          folded = touched.count
          self.states[action.path] = after
        }
        self.feed.record(
          .action(
            path: action.path.description, text: batch.texts[index] ?? "", source: action.source),
          at: action.timing.start, timing: action.timing, changes: changes, folded: folded)
      case .change(let change, let at):
        if case .collection(let path, let id, false, _) = change,
          let removed = InstancePath(parsing: "\(path)#\(id)")
        {
          self.states[removed] = nil
        }
        self.feed.record(change, at: at, plugin: self.plugin(failing: change))
      }
    }
  }
}
