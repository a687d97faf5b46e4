import Foundation
import Patchbay
import PatchbayAppQueue
import PatchbayHost
import PatchbayScript
import PatchbayStateDiff

/// What DevTools knows of a run, as it happens: the timeline of everything that changed the
/// app (each entry one JSON object), the steps that rebuild any of its states, and the pages
/// listening. [thread-safe]
///
/// The app's queue only takes its changes down (``JournalEntry``); a ``JournalPump`` turns
/// them into entries a batch at a time, off the queue. A page that falls behind loses its
/// oldest lines, not the app's time; it sees the gap in `seq` and reloads.
///
/// ```swift
/// let feed = DevToolsFeed()
/// feed.attach(to: app)                              // from now on, every change
/// let lines = feed.subscribe()                      // a page's stream of JSON lines
/// await feed.flush()                                // what happened so far is in…
/// feed.timeline()                                   // …the timeline
/// ```
public final class DevToolsFeed: Sendable {
  struct Log {
    var entries: [String] = []
    /// The seq of `entries[0]` (older entries are dropped past ``keptEntries``).
    var firstEntry = 1
    var steps: [(line: Int, step: RecordingLine.Step)] = []
    var pages: [Int: AsyncStream<String>.Continuation] = [:]
    var nextPage = 0
    /// The history of each plugin file: swaps, rollbacks, crashes, failures.
    var plugins: [String: [String]] = [:]
    /// The pump, while attached; and who waits for its next batch.
    var pump: JournalPump?
    /// The app attached, to stop watching its log.
    weak var app: AppRuntime?
    var flushes: [(continuation: CheckedContinuation<Void, Never>, diffs: Bool)] = []
  }

  let log = LockedValue(Log())
  private let start = ReduceTiming.now
  /// How many timeline entries a page can load; the steps are all kept (time travel needs them).
  public static let keptEntries = 100_000
  /// How many lines a page may fall behind by before it loses the oldest.
  public static let pageBuffer = 4_096

  /// When the pump snapshots the instances a batch touched, to diff them.
  public struct Pacing: Sendable {
    /// A snapshot may take this share of the reduces' own time since the last (the whole of
    /// DevTools may add 5 % to the queue's time: the snapshots take at most 2 of them).
    public var snapshotShare = 0.02
    /// Up to this many actions since the last snapshot, each batch snapshots.
    public var personsPace = 2
    /// A snapshot at least this often while actions come.
    public var stalest = Duration.seconds(1)
    /// A batch this often while changes come (and at once for ``DevToolsFeed/flush(diffs:)``):
    /// 20 a second, so a click shows within 50 ms, and each batch's own cost is spread over 50
    /// actions at 1,000 a second.
    public var batchInterval = Duration.milliseconds(50)

    public static let standard = Pacing()
    public init() {}
  }

  private let pacing: Pacing

  public init(pacing: Pacing = .standard) {
    self.pacing = pacing
  }

  /// Takes `app`'s changes from now on, with the state diffs they cause, and its plugins' log
  /// lines, until ``detach()``.
  public func attach(to app: AppRuntime) {
    let pump = JournalPump(app: app, feed: self, pacing: self.pacing)
    self.log.withValue { $0.pump = pump }
    pump.start()
    app.hooks.watchLog { [weak self] feature, level, text in
      self?.noteLog(feature: feature, level: level, text)
    }
    self.log.withValue { $0.app = app }
  }

  /// Stops taking the app's changes; the timeline stays.
  public func detach() {
    let (pump, app) = self.log.withValue { log in
      defer { log.app = nil }
      return (log.pump, log.app)
    }
    pump?.stop()
    app?.hooks.watchLog(nil)
  }

  /// The time DevTools' batches have taken on the app queue so far (the per-action cost, a
  /// clock read and an append, is the app's own): what the benchmarks weigh.
  public var appQueueTime: Duration {
    .nanoseconds(self.log.withValue { $0.pump?.spentOnQueue.load(ordering: .relaxed) ?? 0 })
  }

  /// Returns once every change the app made before the call is in the timeline, with the
  /// state diffs it caused (`diffs`), or with those the snapshot budget allows now (the
  /// benchmarks' pace: see ``JournalPump``).
  public func flush(diffs: Bool = true) async {
    await withCheckedContinuation { continuation in
      let pump = self.log.withValue { log in
        if log.pump != nil { log.flushes.append((continuation, diffs)) }
        return log.pump
      }
      guard let pump else { return continuation.resume() }
      pump.hurry()
    }
  }

  /// Who waits for the batch the pump takes now, and whether one of them wants every diff.
  func takeFlushes() -> (waiting: [CheckedContinuation<Void, Never>], diffs: Bool) {
    self.log.withValue { log in
      defer { log.flushes = [] }
      return (log.flushes.map(\.continuation), log.flushes.contains { $0.diffs })
    }
  }

  /// The pump ended: nobody waits for it any more.
  func pumpStopped() {
    self.log.withValue { log in
      defer { log.flushes = [] }
      log.pump = nil
      return log.flushes
    }.forEach { $0.continuation.resume() }
  }

  /// Adds a change to the timeline and tells every page: when it happened (``ReduceTiming/now``),
  /// and for an action, how its reduce went and what it changed in its instance's state (with
  /// the `folded` actions before it in the same batch, when more than one). A failure of an
  /// instance's plugin (`plugin`) goes in that plugin's history too.
  func record(
    _ change: AppChange, at time: UInt64, reduce: (nanoseconds: UInt64, effects: Int?)? = nil,
    changes: [StateChange]? = nil, folded: Int = 0, plugin: String? = nil
  ) {
    let time = self.milliseconds(at: time)
    self.log.withValue { log in
      let step = RecordingLine.Step(change)
      if let step { log.steps.append((line: log.steps.count + 1, step: step)) }
      var fields: [(String, String)] = [
        ("seq", String(log.steps.count)), ("t", String(time)),
      ]
      switch change {
      case .action(let path, let text, let source, _):
        fields += [
          ("kind", #""action""#), ("path", JSONText.string(path)),
          ("text", JSONText.string(text)), ("source", JSONText.string(source.rawValue)),
        ]
        if let reduce {
          fields.append(("ns", String(reduce.nanoseconds)))
          if let effects = reduce.effects { fields.append(("effects", String(effects))) }
        }
        if let changes { fields.append(("changes", JSONText.array(changes.map(Self.json)))) }
        if folded > 1 { fields.append(("folded", String(folded))) }
      case .navigation(let action, let state, _):
        fields += [
          ("kind", #""navigation""#), ("text", JSONText.string(Self.text(action))),
          ("stack", JSONText.array(state.stack.map { JSONText.string($0.description) })),
          ("presented", state.presented.map { JSONText.string($0.description) } ?? "null"),
        ]
      case .collection(let path, let id, let added, _):
        fields += [
          ("kind", #""collection""#), ("path", JSONText.string(path)),
          ("id", JSONText.string(id)), ("added", added ? "true" : "false"),
        ]
      case .swap(let report):
        fields += [
          ("kind", #""swap""#), ("feature", JSONText.string(report.featureID)),
          ("from", JSONText.string(report.from)), ("to", JSONText.string(report.to)),
          ("generation", String(report.generation)),
          ("instances", JSONText.array(report.instances.map(JSONText.string))),
          ("text", JSONText.string(report.description)),
        ]
        let event = report.isRollback ? "rollback" : "swap"
        Self.addHistory(
          to: report.to, time, event, "generation \(report.generation) of \(report.featureID)",
          in: &log)
        if event == "rollback" {
          Self.addHistory(to: report.from, time, event, "rolled back to \(report.to)", in: &log)
        }
      case .failure(let error):
        fields += [("kind", #""failure""#), ("text", JSONText.string(error.description))]
        if let plugin {
          // An isolated plugin's crash or hang is in the failure's text, with its restart.
          let text = error.description
          let crashed = text.contains("crashed") || text.contains(" hung")
          Self.addHistory(to: plugin, time, crashed ? "crash" : "failure", text, in: &log)
        }
      }
      Self.append(JSONText.object(fields), to: &log)
    }
  }

  /// What an instance's actions of earlier entries changed, diffed since (a snapshot waits
  /// for its budget when actions come fast): not a step; a page applies it to its copy.
  func recordChanges(path: String, _ changes: [StateChange], folded: Int) {
    let time = self.milliseconds
    self.log.withValue { log in
      Self.append(
        JSONText.object([
          ("seq", String(log.steps.count)), ("t", String(time)), ("kind", #""changes""#),
          ("path", JSONText.string(path)), ("changes", JSONText.array(changes.map(Self.json))),
          ("folded", String(folded)),
        ]), to: &log)
    }
  }

  /// Adds a line from outside the app's changes (a plugin's log line, a crash report).
  public func note(kind: String, _ text: String, plugin: String? = nil) {
    let time = self.milliseconds
    self.log.withValue { log in
      let entry = JSONText.object([
        ("seq", String(log.steps.count)), ("t", String(time)), ("kind", JSONText.string(kind)),
        ("text", JSONText.string(text)),
      ])
      if let plugin { Self.addHistory(to: plugin, time, kind, text, in: &log) }
      Self.append(entry, to: &log)
    }
  }

  static func append(_ entry: String, to log: inout Log) {
    log.entries.append(entry)
    if log.entries.count > Self.keptEntries {
      log.entries.removeFirst(log.entries.count / 2)
      log.firstEntry += log.entries.count
    }
    for page in log.pages.values { page.yield(entry) }
  }

  /// Sends every page a message that is not part of the timeline (the sound, MIDI in).
  public func broadcast(_ message: String) {
    self.log.withValue { log in
      for page in log.pages.values { page.yield(message) }
    }
  }

  /// A new page's stream of entries, from now on; it ends when the page goes.
  public func subscribe() -> AsyncStream<String> {
    let (stream, continuation) = AsyncStream.makeStream(
      of: String.self, bufferingPolicy: .bufferingNewest(Self.pageBuffer))
    let id = self.log.withValue { log in
      defer { log.nextPage += 1 }
      log.pages[log.nextPage] = continuation
      return log.nextPage
    }
    // Not under `log` here: a page's task may be cancelled (the runtime then holds its own lock
    // and calls this) while `append` holds `log` and yields (and so takes that runtime lock):
    // the two would wait on each other. The page is let go just after, on another thread.
    continuation.onTermination = { [weak self] _ in
      DispatchQueue.global().async { [weak self] in
        _ = self?.log.withValue { $0.pages.removeValue(forKey: id) }
      }
    }
    return stream
  }

  /// How many pages listen now.
  public var pageCount: Int { self.log.withValue { $0.pages.count } }

  /// The entries so far (at most the last ``keptEntries``), oldest first.
  public func timeline() -> [String] { self.log.withValue { $0.entries } }

  /// The steps so far, as a recording that rebuilds the app (``Rewind``).
  func recording(config: String) -> Recording {
    Recording(config: config, steps: self.log.withValue { $0.steps }, file: "the live run")
  }

  /// Milliseconds since the feed started.
  var milliseconds: Int { self.milliseconds(at: ReduceTiming.now) }

  /// Milliseconds from the feed's start to `time` (``ReduceTiming/now``).
  func milliseconds(at time: UInt64) -> Int {
    Int((max(time, self.start) - self.start) / 1_000_000)
  }

  static func json(_ change: StateChange) -> String {
    JSONText.object(
      [("p", JSONText.string(change.pointer))]
        + (change.json.map { [("v", $0)] } ?? [("removed", "true")]))
  }

  static func text(_ action: NavigationAction) -> String {
    switch action {
    case .push(let node): "push \(node)"
    case .present(let node): "present \(node)"
    case .pop: "pop"
    case .popToRoot: "popToRoot"
    case .dismiss: "dismiss"
    case .deepLink(let nodes): "deepLink /" + nodes.joined(separator: "/")
    }
  }
}
