import Foundation

/// Swaps features when their plugin file is rebuilt: `patchbay run --watch`.
///
/// ```swift
/// let watcher = PluginWatcher(app: app) { print("watch: \($0)") }
/// watcher.start()
/// // swift build --product Counter  →  "watch: dev.patchbay.counter: libCounter.so → …"
/// ```
///
/// Every `interval` it looks at the files that implement the app's features. A file that
/// changed is loaded only once it has stopped changing for `quietPeriod` *and* is a whole ELF
/// shared object (``ELFImage/incompleteness(of:)``): a linker still writing, or a copy cut
/// short, is never loaded. Then every feature that file implements is swapped
/// (``AppRuntime/swap(_:to:)``). A failed swap is reported once and the old implementation
/// keeps running; the file is tried again when it changes again.
public final class PluginWatcher: @unchecked Sendable {
  /// What the watcher saw of one file.
  private struct Watched {
    var identity: FileIdentity?
    /// When the file last changed, if a change waits to be loaded.
    var changedAt: ContinuousClock.Instant?
    /// The identity a report was last made for, so one state of the file is reported once.
    var reported: FileIdentity?
  }

  public let app: AppRuntime
  public let interval: Duration
  public let quietPeriod: Duration
  private let report: @Sendable (String) -> Void
  private let queue = DispatchQueue(label: "patchbay.plugin-watcher")
  private var timer: DispatchSourceTimer?
  private var watched: [String: Watched] = [:]
  private let clock = ContinuousClock()

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
      for path in self.files() { self.watched[path] = Watched(identity: FileIdentity(path: path)) }
      let timer = DispatchSource.makeTimerSource(queue: self.queue)
      let nanoseconds =
        Int(self.interval.components.seconds) * 1_000_000_000
        + Int(self.interval.components.attoseconds / 1_000_000_000)
      timer.schedule(
        deadline: .now() + .nanoseconds(nanoseconds), repeating: .nanoseconds(nanoseconds))
      timer.setEventHandler { [weak self] in self?.check() }
      timer.resume()
      self.timer = timer
    }
  }

  /// Stops watching.
  public func stop() {
    self.queue.sync {
      self.timer?.cancel()
      self.timer = nil
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
        continue
      }
      guard let changedAt = entry.changedAt, now - changedAt >= self.quietPeriod, let identity
      else { continue }
      if let problem = ELFImage.incompleteness(of: path) {
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
