import Foundation
import Patchbay
import PatchbayABI
import PatchbayEncoding

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
public final class AppRuntime: @unchecked Sendable {
  public let config: AppConfig
  /// The features new instances are created from; a swap replaces one.
  public var registry: FeatureRegistry { self.executor.sync { self.features } }
  /// Finds and loads plugins for swaps.
  public let loader: PluginLoader
  let router: Router
  /// The app queue: everything below marked "app queue" is touched only there.
  let executor = AppExecutor(name: "patchbay-app")
  // App queue:
  private var features: FeatureRegistry
  private var navigationState = NavigationState()
  private var instances: [(path: String, handle: FeatureHandle)] = []
  /// Navigation requests made during the current job, applied when its action is done.
  private var pendingNavigation: [(request: NavigationRequest, path: String)] = []
  /// The failures of the command running now; nil outside commands.
  private var commandFailures: [String]?
  private let changeHandler = LockedValue<(@Sendable (AppChange) -> Void)?>(nil)
  /// Whether the app replays a recording: effects' own sends are dropped.
  let replaying: Bool
  /// Whether action changes carry the state diff they caused (costs a snapshot per action).
  public var tracksStateChanges: Bool {
    get { self.lastStates.withValue { $0 != nil } }
    set {
      self.lastStates.withValue { $0 = newValue ? [:] : nil }
      guard newValue else { return }
      for (path, handle) in self.executor.sync({ self.instances }) {
        if let state = try? handle.stateValue() { self.lastStates.withValue { $0?[path] = state } }
      }
    }
  }
  /// The state each instance had after its last action, for diffs.
  private let lastStates = LockedValue<[String: WireValue]?>(nil)
  private let logHandler = LockedValue<(@Sendable (String, PluginLogLevel, String) -> Void)?>(nil)

  /// Creates the root instance and its children, then follows the initial route.
  ///
  /// With `replaying`, instances drop what their effects send: a replay feeds the effects'
  /// recorded actions instead, so the run reproduces exactly.
  public init(
    config: AppConfig, registry: FeatureRegistry, loader: PluginLoader? = nil,
    replaying: Bool = false
  ) throws(AppError) {
    self.config = config
    self.features = registry
    self.loader = loader ?? config.loader()
    self.router = Router(config: config)
    self.replaying = replaying
    do {
      try self.executor.sync { () throws(AppError) in
        try self.create(node: config.root, at: config.root)
      }
      if let initial = config.initialRoute, initial != "/" {
        try self.follow(route: initial)
      }
    } catch {
      self.executor.stop()
      throw error
    }
  }

  deinit {
    self.executor.stop()
  }

  /// Called with each message a plugin logs (`host->log`), and each error it reports outside
  /// any call (from an effect thread): the feature's id, the level, the text. On any thread.
  public func onLog(_ handler: (@Sendable (String, PluginLogLevel, String) -> Void)?) {
    self.logHandler.value = handler
  }

  /// Called after every change, on the thread that made it.
  public func onChange(_ handler: (@Sendable (AppChange) -> Void)?) {
    self.changeHandler.value = handler
  }

  /// The navigation state.
  public var navigation: NavigationState {
    self.executor.sync { self.navigationState }
  }

  /// Live instance paths, root first.
  public var paths: [String] {
    self.executor.sync { self.instances.map(\.path) }
  }

  /// The instance at `path` (see the type's documentation for paths).
  public func instance(_ path: String) throws(AppError) -> FeatureHandle {
    try self.executor.sync { () throws(AppError) in try self.instanceHere(path) }
  }

  /// ``instance(_:)``, on the app queue.
  private func instanceHere(_ path: String) throws(AppError) -> FeatureHandle {
    let found = { () -> FeatureHandle? in
      if let exact = self.instances.first(where: { $0.path == path }) { return exact.handle }
      // `echo` for the only live `echo#n`; `practice/quiz` for `practice#n/quiz`; `tallies#a`
      // for `home/tallies#a`.
      var matches = self.instances.filter { Self.strip($0.path) == path }
      if matches.isEmpty { matches = self.instances.filter { $0.path.hasSuffix("/" + path) } }
      return matches.count == 1 ? matches[0].handle : nil
    }()
    guard let found else {
      let live = self.instances.map(\.path)
      throw AppError(
        "no feature at '\(path)'.\(suggestion(for: path, among: live.map(Self.strip)))"
          + " Live paths: \(live.joined(separator: ", ")).")
    }
    return found
  }

  /// `practice#1/quiz` → `practice/quiz`.
  static func strip(_ path: String) -> String {
    path.split(separator: "/").map { $0.split(separator: "#").first.map(String.init) ?? "" }
      .joined(separator: "/")
  }

  /// Sends the text form of an action to the instance at `path`.
  ///
  /// Throws when the text is not an action of the feature, when the plugin refuses the action
  /// (its reason), or when a navigation request the action made is refused; the state stays
  /// as the refusal left it.
  public func send(_ path: String, _ actionText: String) throws(AppError) {
    try self.executor.sync { () throws(AppError) in
      let handle = try self.instanceHere(path)
      let bytes: [UInt8]
      do throws(FeatureCallError) {
        bytes = try handle.parseAction(actionText)
      } catch {
        throw AppError("\(path): \(error.reason)")
      }
      try self.command { handle.send(bytes) }
    }
  }

  /// Runs a command's work on the app queue, then the navigation requests it made; throws
  /// the first failure any of it caused.
  private func command(_ work: () throws(AppError) -> Void) throws(AppError) {
    self.commandFailures = []
    defer { self.commandFailures = nil }
    try work()
    self.applyPendingNavigation()
    if let failure = self.commandFailures?.first { throw AppError(failure) }
  }

  /// Reports a failure: to the command running, if any, and to the change handler.
  private func fail(path: String, _ message: String) {
    if self.executor.isCurrent, self.commandFailures != nil {
      self.commandFailures?.append("\(path): \(message)")
    }
    self.changeHandler.value?(.failure(path: path, message: message))
  }

  /// Applies the navigation requests made so far, in order. On the app queue.
  private func applyPendingNavigation() {
    while !self.pendingNavigation.isEmpty {
      let (request, path) = self.pendingNavigation.removeFirst()
      do {
        try self.navigateHere(request.action, state: request.state)
      } catch {
        self.fail(path: path, "navigation \(request) refused: \(error)")
      }
    }
  }

  /// What follows a job that reduced actions outside a command (an effect's action).
  private func afterJob() {
    self.applyPendingNavigation()
  }

  /// A feature asked to navigate: applied after the action that asked.
  private func navigationRequested(_ request: NavigationRequest, from path: String) {
    if self.executor.isCurrent {
      self.pendingNavigation.append((request, path))
    } else {
      self.executor.enqueue { [weak self] in
        self?.pendingNavigation.append((request, path))
        self?.applyPendingNavigation()
      }
    }
  }

  /// Applies a navigation request, creating and destroying instances to match. A created
  /// instance starts from `state` (snapshot bytes) when given.
  public func navigate(_ action: NavigationAction, state: [UInt8]? = nil) throws(AppError) {
    try self.executor.sync { () throws(AppError) in
      try self.command { () throws(AppError) in try self.navigateHere(action, state: state) }
    }
  }

  /// ``navigate(_:state:)``, on the app queue.
  private func navigateHere(_ action: NavigationAction, state: [UInt8]?) throws(AppError) {
    let removed = try self.applyNavigation(action, state: state)
    for handle in removed.reversed() { handle.cancelEffects() }
    self.changeHandler.value?(.navigation(action, self.navigationState, initial: state))
  }

  /// Moves navigation to its next state: creates the new routes' instances first (undoing
  /// them if one fails, so a failed request changes nothing), then takes the gone routes'
  /// instances out of the app and returns them.
  private func applyNavigation(_ action: NavigationAction, state: [UInt8]?) throws(AppError)
    -> [FeatureHandle]
  {
    if let refusal = self.router.refusal(of: action, in: self.navigationState) {
      throw AppError(refusal)
    }
    var next = self.navigationState
    _ = self.router.reduce(into: &next, action: action)
    let before = self.navigationState.routes
    let after = next.routes
    try self.allOrNothing { () throws(AppError) in
      for route in after where !before.contains(route) {
        try self.create(node: route.node, at: route.description, state: state)
      }
    }
    self.navigationState = next
    var removed: [FeatureHandle] = []
    for route in before.reversed() where !after.contains(route) {
      removed += self.remove(prefix: route.description)
    }
    return removed
  }

  /// Adds an instance with `id` to the collection at `path` (`home/tallies`, or `tallies`
  /// while its parent has one live instance), from `state` (snapshot bytes) when given.
  ///
  /// ```swift
  /// try app.add(to: "home/tallies", id: "c")
  /// try app.send("home/tallies#c", "increment")
  /// ```
  public func add(to path: String, id: String, state: [UInt8]? = nil) throws(AppError) {
    if let problem = AppConfig.problem(withInstanceID: id) { throw AppError(problem) }
    let collection = try self.executor.sync { () throws(AppError) -> String in
      let (collection, node) = try self.collection(at: path)
      let instancePath = "\(collection)#\(id)"
      if self.instances.contains(where: { $0.path == instancePath }) {
        throw AppError("'\(collection)' already has '\(id)'; remove it first, or pick another id.")
      }
      try self.allOrNothing { () throws(AppError) in
        try self.create(node: node.key, at: instancePath, state: state)
      }
      return collection
    }
    self.executor.sync {
      self.changeHandler.value?(.collection(path: collection, id: id, added: true, state: state))
    }
  }

  /// Removes the instance `id` from the collection at `path`, cancelling its effects.
  public func remove(from path: String, id: String) throws(AppError) {
    let (collection, removed) = try self.executor.sync {
      () throws(AppError) -> (String, [FeatureHandle]) in
      let (collection, _) = try self.collection(at: path)
      let instancePath = "\(collection)#\(id)"
      guard self.instances.contains(where: { $0.path == instancePath }) else {
        let ids = self.ids(in: collection)
        throw AppError(
          "'\(collection)' has no '\(id)'.\(suggestion(for: id, among: ids))"
            + " It has: \(ids.isEmpty ? "nothing" : ids.joined(separator: ", ")).")
      }
      return (collection, self.remove(prefix: instancePath))
    }
    self.executor.sync {
      for handle in removed.reversed() { handle.cancelEffects() }
      self.changeHandler.value?(.collection(path: collection, id: id, added: false, state: nil))
    }
  }

  /// The ids live in the collection at `path`, in the order they were added.
  public func ids(in path: String) -> [String] {
    self.executor.sync {
      self.instances.compactMap { instance in
        guard instance.path.hasPrefix(path + "#"),
          !instance.path.dropFirst(path.count + 1).contains("/")
        else { return nil }
        return String(instance.path.dropFirst(path.count + 1))
      }
    }
  }

  /// Runs `body`, which creates instances; if it throws, the instances it created are taken
  /// out again, so a failed request changes nothing. On the app queue.
  private func allOrNothing(_ body: () throws(AppError) -> Void) throws(AppError) {
    let count = self.instances.count
    do {
      try body()
    } catch {
      self.instances.removeSubrange(count...)
      throw error
    }
  }

  /// The full path (`home/tallies`) and node of the collection `path` names. On the app queue.
  private func collection(at path: String) throws(AppError) -> (String, AppConfig.Node) {
    let key = String(path.split(separator: "/").last ?? "")
    let collections = self.config.nodes.filter { $0.kind == .collection }.map(\.key)
    guard let node = self.config.node(key), node.kind == .collection, let parentKey = node.parent
    else {
      throw AppError(
        "'\(path)' is not a collection.\(suggestion(for: key, among: collections))"
          + (collections.isEmpty
            ? " This app has none." : " Collections: \(collections.joined(separator: ", "))."))
    }
    let parents: [String]
    if path.contains("/") {
      let prefix = String(path[..<path.lastIndex(of: "/")!])
      parents = self.instances.map(\.path).filter { $0 == prefix || Self.strip($0) == prefix }
    } else {
      parents = self.instances.map(\.path).filter {
        Self.strip($0).split(separator: "/").last.map(String.init) == parentKey
      }
    }
    guard parents.count == 1 else {
      throw AppError(
        parents.isEmpty
          ? "'\(path)': its parent '\(parentKey)' is not live; navigate to it first."
          : "'\(path)' is ambiguous: '\(parentKey)' is live at \(parents.joined(separator: ", ")); write the full path (\(parents[0])/\(key))."
      )
    }
    return ("\(parents[0])/\(key)", node)
  }

  // MARK: - Swap

  /// Swaps the implementation of a feature — named by a node key (`counter`) or its id
  /// (`dev.patchbay.counter`) — for the one in `plugin` (a name searched on the app's plugin
  /// paths, or a path), in every live instance and for every instance created later. Each
  /// instance keeps its state (migrated when the schemas differ); actions sent meanwhile wait
  /// and then reach the new code in order. Any failure changes nothing and says why.
  ///
  /// ```swift
  /// try app.swap("counter", to: "CounterAlt")
  /// try app.send("counter", "increment")   // CounterAlt reduces it, from Counter's count
  /// ```
  @discardableResult
  public func swap(_ feature: String, to plugin: String) throws(AppError) -> SwapReport {
    let clock = ContinuousClock()
    let start = clock.now
    let id = try self.featureID(named: feature)
    let loaded: LoadedPlugin
    do {
      loaded = try self.plugin(plugin)
    } catch {
      throw AppError("swap \(feature): \(error.description) The old implementation keeps running.")
    }
    guard let replacement = loaded.features.first(where: { $0.id == id }) else {
      throw AppError(
        "swap \(feature): \(loaded.path) has no feature '\(id)' (it has: "
          + "\(loaded.features.map(\.id).joined(separator: ", "))). A swap replaces a feature with "
          + "another implementation of the same id. The old implementation keeps running.")
    }
    // The switch itself runs on the app queue, so no action interleaves: actions sent
    // meanwhile wait their turn and reach the new code.
    let (previous, swapped, held) = try self.executor.sync {
      () throws(AppError) -> (LoadedFeature?, [String], Duration) in
      let previous = self.features[id]
      let targets = self.instances.filter {
        $0.handle.feature.id == id && $0.handle.feature !== replacement
      }
      let holding = clock.now
      do throws(FeatureCallError) {
        try FeatureHandle.swap(targets.map(\.handle), to: replacement)
      } catch {
        throw AppError(
          "swap \(feature) to \(loaded.path) refused: \(error.description). The old implementation "
            + "keeps running, with its state.")
      }
      self.features.replace(with: replacement)
      return (previous, targets.map(\.path), clock.now - holding)
    }
    if self.tracksStateChanges {
      // Diffs start again from the new schema.
      for path in swapped {
        if let state = try? self.instance(path).stateValue() {
          self.lastStates.withValue { $0?[path] = state }
        }
      }
    }
    let report = SwapReport(
      featureID: id, from: previous?.plugin.path ?? "", to: loaded.path,
      generation: loaded.generation,
      fromSchema: previous?.schemaVersion ?? replacement.schemaVersion,
      toSchema: replacement.schemaVersion, instances: swapped, duration: clock.now - start,
      held: held)
    self.changeHandler.value?(.swap(report))
    return report
  }

  /// The plugin `reference` names: the load already made of that file when it has not changed
  /// since (swapping back and forth maps no new code), else a new generation.
  private func plugin(_ reference: String) throws(PluginLoadError) -> LoadedPlugin {
    let file = try self.loader.locate(reference).path
    if let identity = FileIdentity(path: file),
      let loaded = self.executor.sync({
        self.features.plugins.last { $0.path == file && $0.fileIdentity == identity }
      })
    {
      return loaded
    }
    return try self.loader.load(file)
  }

  /// The feature id a node key or an id names.
  private func featureID(named name: String) throws(AppError) -> String {
    if let node = self.config.node(name) { return node.featureID }
    let ids = self.registry.featureIDs
    if ids.contains(name) { return name }
    let keys = self.config.nodes.map(\.key)
    throw AppError(
      "swap: no feature '\(name)'.\(suggestion(for: name, among: keys + ids)) Name a node "
        + "(\(keys.joined(separator: ", "))) or a feature id (\(ids.joined(separator: ", "))).")
  }

  /// Follows a route path (`/echo`): navigation as a deep link.
  public func follow(route path: String) throws(AppError) {
    switch self.router.deepLink(path) {
    case .success(let action): try self.navigate(action)
    case .failure(let error): throw AppError(error.description)
    }
  }

  /// The whole app as a value: navigation and every instance's state.
  public func stateValue() throws(AppError) -> WireValue {
    let (navigation, instances) = self.executor.sync { (self.navigationState, self.instances) }
    var features: [WireValue.Field] = []
    for (path, handle) in instances {
      do {
        features.append(WireValue.Field(path, try handle.stateValue()))
      } catch {
        throw AppError(error.description)
      }
    }
    return .record(
      fields: (
        "navigation",
        .record(
          fields: ("stack", .list(navigation.stack.map { .string($0.description) })),
          ("presented", navigation.presented.map { .string($0.description) } ?? .nil))
      ),
      ("features", .record(features)))
  }

  /// The state of one instance, or of the whole app.
  public func state(_ path: String? = nil) throws(AppError) -> WireValue {
    guard let path else { return try self.stateValue() }
    do {
      return try self.instance(path).stateValue()
    } catch let error as AppError {
      throw error
    } catch {
      throw AppError("\(error)")
    }
  }

  /// The screen on top: the presented feature, else the top of the stack, else the root.
  public var currentPath: String {
    self.executor.sync {
      self.navigationState.presented?.description ?? self.navigationState.stack.last?.description
        ?? self.config.root
    }
  }

  /// The rendered view of the screen on top, with its `child` features' views below it.
  public func renderCurrent() throws(AppError) -> String {
    let path = self.currentPath
    let children = self.executor.sync {
      self.instances.filter { $0.path.hasPrefix(path + "/") }
    }
    do {
      var text = try self.instance(path).render()
      for child in children {
        text += "\n\n── \(child.path.dropFirst(path.count + 1)) ──\n" + (try child.handle.render())
      }
      return text
    } catch let error as AppError {
      throw error
    } catch {
      throw AppError("\(error)")
    }
  }

  /// Whether every instance is quiet: no queued action, no running effect, no navigation
  /// request waiting.
  public var isQuiet: Bool {
    // A job of its own on the app queue: the effects' actions enqueued before it have run.
    self.executor.sync {
      self.pendingNavigation.isEmpty && self.instances.allSatisfy(\.handle.isQuiet)
    }
  }

  /// Waits until every instance is quiet (checked twice in a row, so an action in flight
  /// between an effect and the queue is not missed), or `timeout` passes; returns whether the
  /// app settled.
  public func settle(timeout: Duration = .seconds(30)) async -> Bool {
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: timeout)
    var quietChecks = 0
    while clock.now < deadline {
      quietChecks = self.isQuiet ? quietChecks + 1 : 0
      if quietChecks >= 2 { return true }
      try? await Task.sleep(for: .milliseconds(2))
    }
    return false
  }

  // MARK: - Instances

  /// Creates the instance of `node` at `path` (from `state` when given), and its `child`
  /// features under it.
  private func create(node key: String, at path: String, state: [UInt8]? = nil) throws(AppError) {
    guard let node = self.config.node(key), let feature = self.features[node.featureID] else {
      throw AppError("'\(key)' has no loaded feature; run `patchbay check` on the config.")
    }
    let handle: FeatureHandle
    do {
      let logs = self.logHandler
      let id = feature.id
      handle = try FeatureHandle(feature: feature, restoring: state) { level, message in
        logs.value?(id, PluginLogLevel(level), message)
      }
    } catch {
      throw AppError(error.description)
    }
    if !self.replaying {
      // A replay applies the recorded navigation instead.
      handle.onNavigationRequest { [weak self] request in
        self?.navigationRequested(request, from: path)
      }
    }
    let changes = self.changeHandler
    handle.onFailure { [weak self] message in self?.fail(path: path, message) }
    handle.attach(to: self.executor) { [weak self] in self?.afterJob() }
    let parentObserves =
      node.parent.flatMap { self.config.node($0)?.observes.contains(key) } ?? false
    if self.tracksStateChanges, let initial = try? handle.stateValue() {
      self.lastStates.withValue { $0?[path] = initial }
    }
    let lastStates = self.lastStates
    handle.onReduced { [weak self, weak handle] bytes, source in
      if let handler = changes.value {
        let text = (try? handle?.formatAction(bytes)) ?? "\(bytes.count) bytes"
        var diff: String?
        if lastStates.value != nil, let after = handle?.stateDuringCallback() {
          let before = lastStates.withValue { states in
            defer { states?[path] = after }
            return states?[path]
          }
          diff = stateDiff(before, after)
        }
        handler(
          .action(
            path: path, text: text, source: source == .effect ? .effect : .command, diff: diff))
      }
      // A replay applies the recorded parent actions instead.
      if node.parent != nil, self?.replaying == false {
        self?.forwardToParent(bytes, from: node, at: path, everything: parentObserves)
      }
    }
    if self.replaying { handle.muteEffects() }
    self.instances.append((path, handle))
    for child in self.config.children(of: key) {
      switch child.kind {
      case .child: try self.create(node: child.key, at: "\(path)/\(child.key)")
      case .collection:
        for id in child.ids { try self.create(node: child.key, at: "\(path)/\(child.key)#\(id)") }
      case .stack, .presented: break
      }
    }
  }

  /// On the app queue, after the child reduced it: hands a child's action to its parent, as
  /// `<childKey>(<action>)` — from a collection's
  /// instance `<key>(element(id: "a", action: <action>))`, like TCA's `forEach` — delegate
  /// actions (`delegate(…)`) always, every action when the parent observes the child.
  private func forwardToParent(
    _ bytes: [UInt8], from node: AppConfig.Node, at path: String, everything: Bool
  ) {
    // Most actions are not for the parent: look at the name before decoding anything.
    guard let parentKey = node.parent,
      everything || WireValue.caseName(of: bytes) == "delegate",
      let action = try? WireValue(decoding: bytes)
    else { return }
    let parentPath: String? = {
      if node.kind == .child || node.kind == .collection {
        return String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)])
      }
      // A screen's parent is the nearest live instance of the parent node below it.
      return self.instances.last { Self.strip($0.path) == parentKey || $0.path == parentKey }?.path
    }()
    guard let parentPath,
      let parent = self.instances.first(where: { $0.path == parentPath })?.handle
    else { return }
    var wrapped = action
    if node.kind == .collection, let hash = path.lastIndex(of: "#") {
      let id = String(path[path.index(after: hash)...])
      wrapped = .case(
        "element", [WireValue.Field("id", .string(id)), WireValue.Field("action", action)])
    }
    parent.send(WireValue.case(node.key, [WireValue.Field("_0", wrapped)]).bytes)
  }

  /// Takes the instance at `path` and everything under it out of the app; the caller cancels
  /// and releases them.
  private func remove(prefix path: String) -> [FeatureHandle] {
    let removed = self.instances.filter { $0.path == path || $0.path.hasPrefix(path + "/") }
    self.instances.removeAll { $0.path == path || $0.path.hasPrefix(path + "/") }
    return removed.map(\.handle)
  }
}

/// Something that happened in a running app, for `--print-changes` and `--record`.
public enum AppChange: Sendable {
  public enum Source: String, Sendable { case command, effect, navigation }
  /// An action an instance reduced; `diff` (with ``AppRuntime/tracksStateChanges``) is its
  /// state change as `- old` / `+ new` lines of JSON, empty when nothing changed.
  case action(path: String, text: String, source: Source, diff: String? = nil)
  /// A navigation step, the navigation state after it, and the state the new instance
  /// started from when the step gave one.
  case navigation(NavigationAction, NavigationState, initial: [UInt8]? = nil)
  /// An instance added to (with the state it started from, if given) or removed from a
  /// collection.
  case collection(path: String, id: String, added: Bool, state: [UInt8]?)
  /// A feature's implementation swapped.
  case swap(SwapReport)
  case failure(path: String, message: String)
}

/// What a swap did: which feature, from which plugin file to which, and how long it took.
public struct SwapReport: Sendable, Equatable, CustomStringConvertible {
  public let featureID: String
  /// The plugin file that implemented the feature before, and the one that does now.
  public let from: String
  public let to: String
  /// The new plugin's generation (how many times this process loaded that file).
  public let generation: Int
  public let fromSchema: UInt32
  public let toSchema: UInt32
  /// The instances now running the new code.
  public let instances: [String]
  /// The whole swap, loading the plugin included.
  public let duration: Duration
  /// How long the instances held their actions (snapshot → migrate → create): the pause
  /// the app sees. Loading happens before, while the old code still runs.
  public let held: Duration

  public var description: String {
    let file = { (path: String) in path.split(separator: "/").last.map(String.init) ?? path }
    let milliseconds = { (duration: Duration) in
      Double(duration.components.attoseconds) / 1e15 + Double(duration.components.seconds) * 1e3
    }
    return
      "\(self.featureID): \(file(self.from)) → \(file(self.to)) (generation \(self.generation))"
      + (self.fromSchema == self.toSchema
        ? "" : ", state schema \(self.fromSchema) → \(self.toSchema)")
      + ", \(self.instances.count) instance(s)"
      + (self.instances.isEmpty ? "" : " (\(self.instances.joined(separator: ", ")))")
      + String(
        format: ", %.1f ms (actions held %.2f ms)", milliseconds(self.duration),
        milliseconds(self.held))
  }
}

/// `- old` / `+ new` lines between two states' pretty JSON; empty when they are equal.
func stateDiff(_ before: WireValue?, _ after: WireValue) -> String {
  let old = (before?.json(pretty: true) ?? "").split(separator: "\n").map(String.init)
  let new = after.json(pretty: true).split(separator: "\n").map(String.init)
  var removed: [(Int, String)] = []
  var inserted: [(Int, String)] = []
  for change in new.difference(from: old) {
    switch change {
    case .remove(let offset, let line, _): removed.append((offset, line))
    case .insert(let offset, let line, _): inserted.append((offset, line))
    }
  }
  let trim = { (line: String) in line.trimmingCharacters(in: .whitespaces) }
  return
    (removed.sorted { $0.0 < $1.0 }.map { "- " + trim($0.1) }
    + inserted.sorted { $0.0 < $1.0 }.map { "+ " + trim($0.1) }).joined(separator: "\n")
}

/// How important a plugin's log message is (`pb_log_level`).
public enum PluginLogLevel: String, Sendable {
  case debug, info, warning, error

  init(_ level: pb_log_level) {
    switch level {
    case PB_LOG_DEBUG: self = .debug
    case PB_LOG_INFO: self = .info
    case PB_LOG_WARNING: self = .warning
    default: self = .error
    }
  }
}
