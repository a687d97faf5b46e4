import Foundation
import Patchbay
import PatchbayHost
import PatchbayScript
import PatchbayStateDiff

/// What DevTools knows of a run, as it happens: the timeline of everything that changed the
/// app (each entry one JSON object), the steps that rebuild any of its states, and the pages
/// listening. [thread-safe]
///
/// The app tells it each change on the thread that made it, so what it does there is small:
/// one line of JSON, appended, and handed to each page's buffer. A page that falls behind
/// loses its oldest lines, not the app's time; it sees the gap in `seq` and reloads.
///
/// ```swift
/// let feed = DevToolsFeed()
/// feed.attach(to: app)                              // from now on, every change
/// let lines = feed.subscribe()                      // a page's stream of JSON lines
/// feed.timeline(after: 0)                           // what happened so far
/// ```
public final class DevToolsFeed: Sendable {
  private struct Log {
    var entries: [String] = []
    /// The seq of `entries[0]` (older entries are dropped past ``keptEntries``).
    var firstEntry = 1
    var steps: [(line: Int, step: RecordingLine.Step)] = []
    var pages: [Int: AsyncStream<String>.Continuation] = [:]
    var nextPage = 0
    /// An action's changes, between the state hook and the action's change (same thread).
    var pendingChanges: (path: String, changes: [StateChange])?
    /// The history of each plugin file: loads, swaps, crashes.
    var plugins: [String: [String]] = [:]
  }

  private let log = LockedValue(Log())
  private let start = ContinuousClock.now
  /// How many timeline entries a page can load; the steps are all kept (time travel needs them).
  public static let keptEntries = 100_000
  /// How many lines a page may fall behind by before it loses the oldest.
  public static let pageBuffer = 4_096

  public init() {}

  /// Listens to `app`'s changes, with diffs as JSON Pointers, from now on.
  public func attach(to app: AppRuntime, also: (@Sendable (AppChange) -> Void)? = nil) {
    app.onStateChanges { [weak self] path, changes in
      self?.log.withValue { $0.pendingChanges = (path, changes) }
    }
    app.onChange { [weak self] change in
      also?(change)
      self?.record(change)
    }
  }

  /// Adds a change to the timeline and tells every page.
  public func record(_ change: AppChange) {
    let time = self.milliseconds
    self.log.withValue { log in
      let step = RecordingLine.Step(change)
      if let step { log.steps.append((line: log.steps.count + 1, step: step)) }
      var fields: [(String, String)] = [
        ("seq", String(log.steps.count)), ("t", String(time)),
      ]
      switch change {
      case .action(let path, let text, let source, _):
        var changes: [StateChange] = []
        if let pending = log.pendingChanges, pending.path == path {
          changes = pending.changes
          log.pendingChanges = nil
        }
        fields += [
          ("kind", #""action""#), ("path", JSONText.string(path)),
          ("text", JSONText.string(text)), ("source", JSONText.string(source.rawValue)),
          ("changes", JSONText.array(changes.map(Self.json))),
        ]
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
        log.plugins[report.to, default: []].append(
          JSONText.object([
            ("t", String(time)), ("event", #""swap""#),
            ("text", JSONText.string("generation \(report.generation) of \(report.featureID)")),
          ]))
      case .failure(let error):
        fields += [("kind", #""failure""#), ("text", JSONText.string(error.description))]
      }
      Self.append(JSONText.object(fields), to: &log)
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
      if let plugin {
        log.plugins[plugin, default: []].append(
          JSONText.object([
            ("t", String(time)), ("event", JSONText.string(kind)), ("text", JSONText.string(text)),
          ]))
      }
      Self.append(entry, to: &log)
    }
  }

  private static func append(_ entry: String, to log: inout Log) {
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
    continuation.onTermination = { [weak self] _ in
      _ = self?.log.withValue { $0.pages.removeValue(forKey: id) }
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

  /// Each plugin file's events (swaps, crashes), as JSON arrays by file.
  func pluginHistory() -> [String: [String]] { self.log.withValue { $0.plugins } }

  /// Milliseconds since the feed started.
  var milliseconds: Int {
    let elapsed = ContinuousClock.now - self.start
    return Int(
      elapsed.components.seconds * 1000 + elapsed.components.attoseconds / 1_000_000_000_000_000)
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
