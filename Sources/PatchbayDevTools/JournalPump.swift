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
/// the entries and, when the pacing allows (``DevToolsFeed/Pacing``), snapshots each
/// instance they touched. Off the queue, each action's text
/// comes from those already seen (a second job formats the new ones, with the generation that
/// reduced them), each state is diffed against the one before, and the entries are written.
///
/// A batch is taken every 1/20 s while changes come, or later when its job took long (a
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
  /// The journal the last batch took, emptied: the next one's (the queue allocates none).
  private var spare: Journal?
  /// Seconds until the next batch.
  private var interval = 1.0 / 20
  typealias Touched = (handle: FeatureHandle, path: InstancePath)
  /// Instances whose actions went out without a diff yet, and how many actions each.
  private var dirty: [Touched] = []
  private var folded: [InstancePath: Int] = [:]
  /// The reduces' time since the last snapshot, what that snapshot's job took, and when.
  private var reducedSinceSnapshot: UInt64 = 0
  private var snapshotCost: UInt64 = 0
  private var lastSnapshot: UInt64 = 0
  private let pacing: DevToolsFeed.Pacing
  /// The reduces' tick counts as nanoseconds.
  private let clock = TickClock()
  /// Nanoseconds the batches' jobs have taken on the app queue.
  let spentOnQueue = Atomic<UInt64>(0)

  /// The most of the app queue's time the batches' jobs take.
  static let queueShare = 0.02
  static let keptTexts = 4_096

  init(app: AppRuntime, feed: DevToolsFeed, pacing: DevToolsFeed.Pacing) {
    self.app = app
    self.feed = feed
    self.pacing = pacing
    self.interval = self.shortestInterval
  }

  /// Seconds between batches while changes come (``DevToolsFeed/Pacing/batchInterval``).
  private var shortestInterval: Double {
    let interval = self.pacing.batchInterval.components
    return Double(interval.seconds) + Double(interval.attoseconds) / 1e18
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
      let (waiting, diffs) = self.feed.takeFlushes()
      self.takeBatch(settling: diffs)
      waiting.forEach { $0.resume() }
    }
    self.feed.pumpStopped()
  }

  /// One batch: the queue's job (the entries, and the states when a snapshot is due), then
  /// the texts (a second job formats those not seen yet), the diffs and the entries.
  private func takeBatch(settling: Bool) {
    guard let app = self.app else { return self.stopping.store(true, ordering: .releasing) }
    var spent: UInt64 = 0
    let waiting = app.journalCount
    let quiet = waiting == 0
    // A quiet app with nothing left to diff is not asked anything.
    guard !quiet || !self.dirty.isEmpty else { return self.paced(by: 0) }
    let now = ReduceTiming.now
    let snapshot = quiet || settling || self.snapshotIsDue(at: now, waiting: waiting)
    let dirty = self.dirty
    let taken = app.perform {
      () -> (Journal, [(path: InstancePath, state: [UInt8]?)])? in
      let began = ReduceTiming.now
      defer { spent += ReduceTiming.now - began }
      // Stopped meanwhile: the app's journal may be the next feed's already (a detach, then an
      // attach, a send, while this thread waited for its turn: DevToolsFeedTests, loaded).
      guard !self.stopping.load(ordering: .acquiring) else { return nil }
      let journal = app.takeJournal(reusing: self.spare.take())
      guard snapshot else { return (journal, []) }
      return (journal, Self.snapshots(of: dirty + journal.touched))
    }
    guard let (journal, snapshots) = taken else { return }
    let (entries, touched) = (journal.entries, snapshot ? [] : journal.touched)
    self.spare = journal
    self.spare?.empty()
    if snapshot {
      (self.dirty, self.reducedSinceSnapshot, self.lastSnapshot) = ([], 0, now)
      self.snapshotCost = spent
    } else {
      for touch in touched where !self.dirty.contains(where: { $0.handle === touch.handle }) {
        self.dirty.append(touch)
      }
    }
    var batch = Batch(entries: entries, snapshots: snapshots)
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

  /// Whether this batch snapshots the instances its actions touched (``DevToolsFeed/Pacing``):
  /// at a person's pace (a few actions since the last), when the reduces since then took 50
  /// times what a snapshot costs, or a second after the last; and, outside this, when the app
  /// goes quiet. So a thousand actions a second cost a snapshot or two a second, and each
  /// click its own.
  private func snapshotIsDue(at now: UInt64, waiting: Int) -> Bool {
    let stalest = self.pacing.stalest.components
    return self.folded.values.reduce(waiting, +) <= self.pacing.personsPace
      || Double(self.reducedSinceSnapshot) * self.pacing.snapshotShare >= Double(self.snapshotCost)
      || now - self.lastSnapshot
        >= UInt64(stalest.seconds) * 1_000_000_000 + UInt64(stalest.attoseconds / 1_000_000_000)
  }

  /// The next batch comes after `spent` is at most ``queueShare`` of the time between.
  private func paced(by spent: UInt64) {
    self.spentOnQueue.add(spent, ordering: .relaxed)
    self.interval = max(self.shortestInterval, Double(spent) / 1e9 / Self.queueShare)
  }

  /// The plugin file that failed, for the failure's instance (its history shows it): the one
  /// it runs now, or the one a rollback since took it from ("Rolled back to NOW: FAILED, …").
  private func plugin(failing change: AppChange) -> String? {
    guard case .failure(let error) = change, case .failed(let path, let reason) = error.reason,
      let now = (try? self.app?.instance(path))?.feature.plugin.path
    else { return nil }
    guard let rolledBack = reason.range(of: "Rolled back to \(now): ") else { return now }
    return String(reason[rolledBack.upperBound...].prefix { $0 != "," })
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

    /// Every instance snapshotted, with its state.
    var snapshotted: [InstancePath: [UInt8]?] = [:]

    init(entries: [JournalEntry], snapshots: [(path: InstancePath, state: [UInt8]?)]) {
      self.entries = entries
      let states = Dictionary(snapshots.map { ($0.path, $0.state) }) { _, last in last }
      self.snapshotted = states
      for (index, entry) in entries.enumerated() {
        guard case .reduced(let action) = entry else { continue }
        self.states[action.path] = (
          index, (self.states[action.path]?.count ?? 0) + 1, states[action.path] ?? nil
        )
      }
    }
  }

  /// On the app queue, as little as can be: the state now of each instance the entries
  /// touched (a batch touches a few, each listed once or a few times), by instance.
  private static func snapshots(
    of touched: [(handle: FeatureHandle, path: InstancePath)]
  ) -> [(path: InstancePath, state: [UInt8]?)] {
    var taken: [ObjectIdentifier] = []
    var states: [(path: InstancePath, state: [UInt8]?)] = []
    for (handle, path) in touched where !taken.contains(ObjectIdentifier(handle)) {
      taken.append(ObjectIdentifier(handle))
      states.append((path, try? handle.snapshot()))
    }
    return states
  }

  /// Off the queue: the entries, each instance's diff on its last action, or on its own for
  /// an instance with no action in this batch.
  private func write(_ batch: Batch) {
    let rate = self.clock.rate
    for (index, entry) in batch.entries.enumerated() {
      switch entry {
      case .reduced(let action):
        var changes: [StateChange]?
        var folded = 0
        let reduced = self.clock.nanoseconds(action.timing.ticks, rate: rate)
        self.reducedSinceSnapshot += reduced
        if let touched = batch.states[action.path], touched.last == index {
          if let after = touched.state {
            changes = StateDiff.changes(before: self.states[action.path], after: after) ?? []
            folded = touched.count + (self.folded.removeValue(forKey: action.path) ?? 0)
            self.states[action.path] = after
          } else {
            self.folded[action.path, default: 0] += touched.count
          }
        }
        self.feed.record(
          .action(
            path: action.path.description, text: batch.texts[index] ?? "", source: action.source),
          at: self.clock.time(of: action.timing.start, rate: rate),
          reduce: (reduced, action.timing.effects),
          changes: changes, folded: folded)
      case .change(let change, let at):
        if case .collection(let path, let id, false, _) = change,
          let removed = InstancePath(parsing: "\(path)#\(id)")
        {
          self.states[removed] = nil
        }
        self.feed.record(change, at: at, plugin: self.plugin(failing: change))
      }
    }
    // Instances snapshotted for actions of earlier batches: their diffs on their own.
    for (path, state) in batch.snapshotted where batch.states[path] == nil {
      guard let state else { continue }
      let changes = StateDiff.changes(before: self.states[path], after: state) ?? []
      self.states[path] = state
      self.feed.recordChanges(
        path: path.description, changes, folded: self.folded.removeValue(forKey: path) ?? 0)
    }
  }
}
