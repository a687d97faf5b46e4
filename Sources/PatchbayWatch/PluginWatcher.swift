import Foundation
import PatchbayELF
import PatchbayHost
import PatchbayLoader

/// Swaps features when their plugin file is rebuilt: `patchbay run --watch`.
///
/// ```swift
/// let watcher = PluginWatcher(app: app) { print("watch: \($0)") }
/// watcher.start()
/// // swift build --product Counter  →  "watch: dev.patchbay.counter: libCounter.so → …"
/// ```
///
/// Where inotify works (Linux), the kernel says when a plugin's folder gets a file closed
/// after writing or renamed into place — a linker finishing — and the watcher looks at once.
/// Every `interval` it also looks at the files that implement the app's features (the
/// fallback, and for writes inotify cannot see). A changed file is loaded only once it is a
/// whole ELF shared object (``ELFImage/incompleteness(of:)``), or a whole WebAssembly module
/// (``WasmWholeness``), and either inotify said it was
/// finished or it has stopped changing for `quietPeriod`: a linker still writing, or a copy
/// cut short, is never loaded. Then every feature that file implements is swapped
/// (``AppRuntime/swap(_:to:)``). A failed swap is reported once and the old implementation
/// keeps running; the file is tried again when it changes again.
///
/// `@unchecked Sendable`: its mutable state (`timer`, `watched`, `notify`) is touched only on
/// its own serial queue; the rest is immutable.
public final class PluginWatcher: @unchecked Sendable {
  /// What the watcher saw of one file.
  private struct Watched {
    var identity: FileIdentity?
    /// When the file last changed, if a change waits to be loaded.
    var changedAt: ContinuousClock.Instant?
    /// The identity a report was last made for, so one state of the file is reported once.
    var reported: FileIdentity?
    /// inotify said the file was closed after writing, or renamed into place.
    var finished = false
  }

  public let app: AppRuntime
  public let interval: Duration
  public let quietPeriod: Duration
  private let report: @Sendable (String) -> Void
  private let queue = DispatchQueue(label: "patchbay.plugin-watcher")
  private var timer: DispatchSourceTimer?
  private var watched: [String: Watched] = [:]
  private let clock = ContinuousClock()
  /// inotify's events, where the system has them.
  private var notify: FinishedFiles?

  /// Whether the kernel tells the watcher about finished files (inotify), rather than the
  /// watcher polling alone.
  public var usesNotifications: Bool { self.queue.sync { self.notify != nil } }

  /// `report` gets one line per swap done or refused.
  public init(
    app: AppRuntime, interval: Duration = .milliseconds(100),
    quietPeriod: Duration = .milliseconds(300),
    report: @escaping @Sendable (String) -> Void
  ) {
    self.app = app
    self.interval = interval
    self.quietPeriod = quietPeriod
    self.report = report
  }

  /// Starts watching (on a queue of its own).
  public func start() {
    self.queue.sync {
      // Each file as it was when it was loaded: a file replaced between the load and now
      // (a build that finished while the app started) is a change, seen at the first look.
      let loaded = Dictionary(
        self.app.registry.currentPlugins.map { ($0.path, $0.fileIdentity) },
        uniquingKeysWith: { first, _ in first })
      for path in self.files() {
        self.watched[path] = Watched(
          identity: loaded[path].flatMap { $0 } ?? FileIdentity(path: path))
      }
      let timer = DispatchSource.makeTimerSource(queue: self.queue)
      let nanoseconds =
        Int(self.interval.components.seconds) * 1_000_000_000
        + Int(self.interval.components.attoseconds / 1_000_000_000)
      timer.schedule(
        deadline: .now() + .nanoseconds(nanoseconds), repeating: .nanoseconds(nanoseconds))
      timer.setEventHandler { [weak self] in self?.check() }
      timer.resume()
      self.timer = timer
      self.startNotifications()
    }
  }

  /// Watches the plugins' folders with inotify: a file closed after writing or renamed into
  /// place is looked at at once. On the watcher's queue.
  private func startNotifications() {
    let folders = self.files().map { URL(fileURLWithPath: $0).deletingLastPathComponent().path }
    self.notify = FinishedFiles(folders: folders, queue: self.queue) { [weak self] paths in
      self?.finished(paths)
    }
  }

  /// Marks the files inotify says are finished, then looks at them. On the watcher's queue.
  private func finished(_ paths: [String]) {
    var any = false
    for path in paths where self.watched[path] != nil {
      self.watched[path]?.finished = true
      any = true
    }
    if any { self.check() }
  }

  /// Stops watching.
  public func stop() {
    self.queue.sync {
      self.timer?.cancel()
      self.timer = nil
      self.notify?.cancel()
      self.notify = nil
    }
  }

  deinit { self.timer?.cancel() }

  /// The files that implement the app's features, or provide its functions, now.
  private func files() -> [String] {
    let registry = self.app.registry
    let features = registry.featureIDs.compactMap { registry[$0]?.plugin.path }
    let functions = registry.currentPlugins.filter { !$0.functions.isEmpty }.map(\.path)
    return Array(Set(features + functions)).sorted()
  }

  /// One look at every file. On the watcher's queue.
  private func check() {
    let now = self.clock.now
    for path in self.files() {
      var entry = self.watched[path] ?? Watched(identity: FileIdentity(path: path))
      defer { self.watched[path] = entry }
      let identity = FileIdentity(path: path)
      if identity != entry.identity {
        entry.identity = identity
        entry.changedAt = now
        // Finished (inotify) files need no quiet period; the wholeness check below guards.
        if !entry.finished { continue }
      }
      guard let changedAt = entry.changedAt,
        entry.finished || now - changedAt >= self.quietPeriod, let identity
      else { continue }
      entry.finished = false
      let problem =
        path.hasSuffix(".wasm")
        ? WasmWholeness.incompleteness(of: path) : ELFImage.incompleteness(of: path)
      if let problem {
        if entry.reported != identity {
          self.report(
            "\(path) changed but \(problem); waiting for a whole plugin. The old implementation keeps running."
          )
          entry.reported = identity
        }
        continue  // looked at again when it changes
      }
      entry.changedAt = nil
      entry.reported = identity
      let registry = self.app.registry
      // A plugin of functions only is swapped by its id: its trampolines move.
      var targets = registry.featureIDs.filter { registry[$0]?.plugin.path == path }
      if targets.isEmpty, let provider = registry.currentPlugins.first(where: { $0.path == path }) {
        targets = [provider.id]
      }
      for id in targets {
        do {
          let swap = try self.app.swap(id, to: path)
          self.report("swapped \(swap)")
        } catch {
          self.report("\(error)")
        }
      }
    }
  }
}
