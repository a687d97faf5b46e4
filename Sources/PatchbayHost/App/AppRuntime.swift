import Foundation
import Patchbay
import PatchbayABI
import PatchbayAppQueue
import PatchbayConfig
import PatchbayEncoding
import PatchbayFlight
import PatchbayFunctionTable
import PatchbayInstanceTree
import PatchbayLoader
import PatchbayPersistence
import PatchbaySharedBoard
import PatchbayStateDiff
import Synchronization

/// A composed app, running: one instance per live feature node, navigation as state, and the
/// commands a person or a script gives it.
///
/// ```swift
/// let app = try AppRuntime(config: config, registry: registry)
/// try app.send("counter", "increment")
/// try app.navigate(.push(node: "echo"))
/// try app.send("echo", #"say(text: "hi")"#)
/// app.stateJSON()  // {"navigation": …, "features": {"counter": …, "echo#1": …}}
/// ```
///
/// Instances are addressed by path: the root's key (`counter`), a screen's `node#instance`
/// (`echo#1`, or just `echo` while one is live), a child under either (`practice#1/quiz`), and
/// a collection's instance by its id (`home/tallies#a`).
/// Pushing or presenting creates the screen's instance and its `child` features; popping and
/// dismissing cancels their effects and destroys them. A collection's instances come and go
/// with ``add(to:id:state:)`` and ``remove(from:id:)``, and with their parent.
///
/// One serial app queue (``AppExecutor``) owns every instance: commands from any thread wait
/// their turn on it, effects' actions are enqueued to it, and a feature's navigation request
/// is applied right after the action that made it. A command fails — throws — when anything
/// it caused fails: the plugin refusing the action, a refused navigation request.
///
/// `@unchecked Sendable`: what changes is ``Owned`` state, touched only by the app queue's jobs
/// (every access asserts it); the rest is immutable, atomic, or says what guards it.
public final class AppRuntime: @unchecked Sendable {
  /// What only the app queue touches.
  package struct Owned {
    /// The features new instances are created from; a swap replaces one.
    package var features: FeatureRegistry
    package var navigation = NavigationState()
    package var instances = InstanceTree<FeatureHandle>()
    /// Navigation requests made during the current job, applied when its action is done.
    var pendingNavigation: [(request: NavigationRequest, path: InstancePath)] = []
    /// The failures of the command running now; nil outside commands.
    var commandFailures: [AppError]?
    /// Features swapped recently, by id: a crash of the new code soon after swaps back.
    var probation: [String: Probation] = [:]
    /// The instances created with the app that started from a kept state, and those states.
    var keptAtStart: [(path: String, state: [UInt8])] = []
    /// The kept state the screen a navigation step is creating started from.
    var keptForStep: [UInt8]?
    /// What features publish for each other ("patchbay.shared/1").
    var shared = SharedBoard<FeatureHandle>()
    /// Instances created by a navigation step or a collection change that is not published
    /// yet: what they publish and read is applied after it is (so a recording has the step
    /// first). nil outside those.
    var sharedLater: [(FeatureHandle, InstancePath)]?
    var started = false
    /// What instances of each feature log through, and how they find functions: made once,
    /// not a closure for each instance (a row of a collection would pay two).
    var pluginLogs: [String: PluginLog] = [:]
    var functionResolver: FunctionResolver?
  }

  public let config: AppConfig
  /// The features new instances are created from; a swap replaces one.
  public var registry: FeatureRegistry { self.executor.sync { self.owned.features } }
  /// Finds and loads plugins for swaps.
  public let loader: PluginLoader
  let router: Router
  /// The app queue: the one owner of the app's instances and of ``Owned``.
  package let executor = AppExecutor(name: "patchbay-app")
  private let storage: ExecutorOwned<Owned>
  /// What plays the app's processors, once attached (``InstancePlayer``).
  package let attachedPlayer = AttachedPlayer()
  /// The functions plugins resolved from each other, behind stable trampolines. [app queue]
  let functions = FunctionTable()
  /// Where the state of `persist = true` features is kept; nil when no node persists.
  let stateKeeper: StateKeeper?
  /// What the app tells whoever watches it (its own locks: handlers are set from any thread).
  let changes = ChangeRecorder()
  /// Where plugins' log lines go, the inputs ``isQuiet`` waits for, the swaps refused: set
  /// and read from any thread (plugins log from their effects' threads).
  package let hooks = AppHooks()
  /// Whether the app replays a recording: effects' own sends are dropped.
  package let replaying: Bool
  /// The last actions, from a checkpoint on, in a file a crash leaves behind. [app queue]
  let flight: FlightRecorder?

  /// The executor-owned state, in place. [executor]
  package var owned: Owned {
    unsafeAddress { self.storage.address }
    unsafeMutableAddress { self.storage.mutableAddress }
  }

  /// Creates the root instance and its children, then follows the initial route.
  ///
  /// With `replaying`, instances drop what their effects send: a replay feeds the effects'
  /// recorded actions instead, so the run reproduces exactly.
  public init(
    config: AppConfig, registry: FeatureRegistry, loader: PluginLoader? = nil,
    replaying: Bool = false
  ) throws(AppError) {
    self.config = config
    self.storage = ExecutorOwned(
      Owned(features: registry), by: self.executor, what: "the app's state")
    self.loader = loader ?? config.loader()
    self.router = Router(config: config)
    self.replaying = replaying
    let hooks = self.hooks
    let plugins = registry.featureIDs.compactMap { id in registry[id].map { (id, $0.plugin.path) } }
    self.flight = FlightRecorder(
      app: config.name, config: config.file, actions: config.limits.flightActions,
      plugins: Dictionary(plugins) { first, _ in first },
      nameInReports: { CrashReports.nameFlightFile($0) }
    ) { line in
      if !hooks.log("patchbay", .warning, line) {
        FileHandle.standardError.write(Data("patchbay: warning: \(line)\n".utf8))
      }
    }
    self.stateKeeper =
      config.nodes.contains(where: \.persists) && !replaying
      ? StateKeeper(folder: config.stateFolder) { line in
        if !hooks.log("patchbay", .error, line) {
          FileHandle.standardError.write(Data("patchbay: \(line)\n".utf8))
        }
      } : nil
    do {
      try self.executor.sync { () throws(AppError) in
        try self.create(node: config.root, at: InstancePath(root: config.root))
      }
      self.executor.sync { self.owned.started = true }
      if let initial = config.initialRoute, initial != "/" {
        try self.follow(route: initial)
      }
    } catch {
      self.executor.stop()
      throw error
    }
  }

  deinit {
    self.stateKeeper?.flush()
    // Handles that outlive the app (a caller kept one) no longer tell it anything.
    _ = self.executor.sync { self.owned.instances.detachAll() }
    self.executor.stop()
    // Plugins may still hold pointers to functions they resolved here: from now on those
    // return zero and say so (docs/ARCHITECTURE.md, "Functions").
    let hooks = self.hooks
    self.functions.abandon { message in
      if !hooks.log("patchbay", .warning, message) {
        FileHandle.standardError.write(Data("patchbay: warning: \(message)\n".utf8))
      }
    }
  }

  /// Runs `body` as one job on the app queue: the app calls it makes run inline, in one turn,
  /// with nothing interleaved. For a host that sends many actions at once.
  ///
  /// ```swift
  /// try app.perform {
  ///   for _ in 0..<100 { try app.send("counter", "increment") }
  /// }
  /// ```
  public func perform<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
    try self.executor.sync(body)
  }

  /// The instances created with the app that started from a state an earlier run kept, by
  /// path, with those states: what a recording notes so that its replay starts the same.
  public var keptStatesAtStart: [(path: String, state: [UInt8])] {
    self.executor.sync { self.owned.keptAtStart }
  }

  /// Replaces the state of the instance at `path` with `state` (its feature's schema): a new
  /// instance of the same code, created from it (a replay of a run that started from kept
  /// state).
  public func restore(_ path: String, state: [UInt8]) throws(AppError) {
    try self.executor.sync { () throws(AppError) in
      let entry = try self.owned.instances.resolve(path)
      do throws(FeatureCallError) {
        try entry.handle.restore(state)
      } catch {
        throw AppError(.failed(path: path, reason: error.description))
      }
      try self.attachedPlayer.player?.play(entry.handle, at: entry.path)
      self.changes.states.track(entry.path, state: try? entry.handle.snapshot())
      self.applyShared(of: entry.handle, at: entry.path)
    }
  }

  /// Waits until the state of every `persist = true` instance is on disk as of its last
  /// action (``AppConfig/stateFolder``). `patchbay run` calls it as it ends.
  public func flushKeptState() {
    self.stateKeeper?.flush()
  }

  /// The navigation state.
  public var navigation: NavigationState {
    self.executor.sync { self.owned.navigation }
  }

  /// Live instance paths, root first.
  public var paths: [String] {
    self.executor.sync { self.owned.instances.paths.map(\.description) }
  }

  /// The instance at `path`, or the one live instance a short form of it names (see
  /// ``InstancePath``).
  public func instance(_ path: String) throws(AppError) -> FeatureHandle {
    try self.executor.sync { () throws(AppError) in try self.owned.instances.resolve(path).handle }
  }

  /// Sends the text form of an action to the instance at `path`.
  ///
  /// Throws when the text is not an action of the feature, when the plugin refuses the action
  /// (its reason), or when a navigation request the action made is refused; the state stays
  /// as the refusal left it.
  public func send(_ path: String, _ actionText: String) throws(AppError) {
    try self.executor.sync { () throws(AppError) in
      let handle = try self.owned.instances.resolve(path).handle
      let bytes: [UInt8]
      do throws(FeatureCallError) {
        bytes = try handle.parseAction(actionText)
      } catch {
        throw AppError(.actionText(path: path, reason: error.reason))
      }
      try self.command { handle.send(bytes) }
    }
  }

  /// Runs a command's work on the app queue, then the navigation requests it made; throws
  /// the first failure any of it caused.
  func command(_ work: () throws(AppError) -> Void) throws(AppError) {
    self.owned.commandFailures = []
    do {
      try work()
      self.applyPendingNavigation()
    } catch {
      self.owned.commandFailures = nil
      throw error
    }
    // One access to the property for both reading and clearing it (each access is checked).
    if let failure = self.owned.commandFailures.take()?.first { throw failure }
  }

  /// Reports a failure: to the command running, if any, and to the change handler.
  package func fail(_ error: AppError) {
    if self.executor.isCurrent, self.owned.commandFailures != nil {
      self.owned.commandFailures?.append(error)
    }
    self.changes.publish(.failure(error))
  }

  /// What follows a job that reduced actions outside a command (an effect's action).
  package func afterJob() {
    self.applyPendingNavigation()
  }

  /// Whether every instance is quiet: no queued action, no running effect, no navigation
  /// request waiting, and no input that will end (a MIDI file) still arriving.
  public var isQuiet: Bool {
    guard self.hooks.inputsHaveEnded else { return false }
    // A job of its own on the app queue: the effects' actions enqueued before it have run.
    return self.executor.sync {
      self.owned.pendingNavigation.isEmpty && self.owned.instances.handles.allSatisfy(\.isQuiet)
    }
  }

  /// Waits until every instance is quiet (checked twice in a row, so an action in flight
  /// between an effect and the queue is not missed), or `timeout` passes; returns whether the
  /// app settled.
  /// A replaying app is settled once quiet: what its effects send is dropped, so nothing can
  /// be in flight (a replay of 10,000 actions settles 10,000 times).
  public func settle(timeout: Duration = .seconds(30)) async -> Bool {
    if self.replaying, self.isQuiet { return true }
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: timeout)
    var quietChecks = 0
    while true {
      // Checked before the deadline: a task that wakes late, on a loaded machine (its thread
      // starved by others blocked on the cooperative pool), still sees a quiet app as
      // settled, and one quiet check past the deadline still gets its confirming second.
      quietChecks = self.isQuiet ? quietChecks + 1 : 0
      if quietChecks >= 2 { return true }
      if clock.now >= deadline, quietChecks == 0 { return false }
      try? await Task.sleep(for: .milliseconds(2))
    }
  }
}
