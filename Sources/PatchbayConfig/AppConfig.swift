import Foundation
import PatchbayLoader
import PatchbayTOML

/// A composed app, as `host-config/*.toml` describes it: which plugins to load, the feature
/// tree, and the routes (deep links) to its features.
///
/// ```toml
/// [app]
/// name = "Demo"
/// root = "home"
/// initial-route = "/"
///
/// [plugins]
/// search-paths = ["../.build/debug"]   # relative to this file
/// load = ["Home", "Counter"]           # names (searched) or paths
/// # isolate = ["Counter"]               # each in a process of its own ("all": every one)
///
/// # [sandbox]                           # what an isolated plugin may do after all
/// # Counter = ["sockets"]               # sockets, exec, ptrace
///
/// [[feature]]
/// key = "home"
/// id = "dev.patchbay.home"
///
/// [[feature]]
/// key = "counter"
/// id = "dev.patchbay.counter"
/// parent = "home"
/// kind = "stack"                        # child | stack | presented | collection
/// # observe = ["quiz"]                  # children whose every action this one receives
///
/// [[feature]]
/// key = "tallies"                       # many counters by id, under home
/// id = "dev.patchbay.counter"
/// parent = "home"
/// kind = "collection"
/// ids = ["a", "b"]                      # the instances it starts with
///
/// [routes]
/// "/" = "home"
/// "/counter" = "counter"
/// ```
public struct AppConfig: Sendable, Equatable {
  /// How a feature node lives in the tree (docs/ARCHITECTURE.md, "Composition").
  public enum Kind: String, Sendable, CaseIterable {
    /// Always alive, scoped under its parent (TCA `Scope`).
    case child
    /// Created when pushed on the navigation stack, destroyed when popped.
    case stack
    /// Exists only while presented (TCA `ifLet`).
    case presented
    /// Many instances by id (TCA `forEach`).
    case collection
  }

  /// A plugin to load: a name searched on the search paths, or a path.
  public struct Plugin: Sendable, Equatable {
    /// As `load` names it (pins and the sandbox are keyed by it).
    public let reference: String
    public let line: Int
    /// What the loader is given: `reference`, or for a relative path, that path from the
    /// config's folder (as search paths are), so that the app loads the same files from
    /// any working directory.
    public var location: String
    /// The SHA-256 its file must have (`[sha256]`), or nil.
    public var sha256: String? = nil
    /// Where errors about it point: `plugins.load[2]`, or `feature "eq".lv2` for an LV2
    /// feature's plugin. Nil: its place in `load`.
    public var keyPath: String? = nil

    init(
      reference: String, line: Int, sha256: String? = nil, keyPath: String? = nil,
      folder: URL? = nil
    ) {
      (self.reference, self.line, self.sha256, self.keyPath) = (reference, line, sha256, keyPath)
      let relativePath =
        reference.contains("/") && !reference.hasPrefix("/") && !reference.hasPrefix("lv2:")
      self.location =
        relativePath
        ? (folder?.appendingPathComponent(reference).standardizedFileURL.path ?? reference)
        : reference
    }
  }

  /// A node of the feature tree.
  public struct Node: Sendable, Equatable {
    public let key: String
    public let featureID: String
    public let parent: String?
    public let kind: Kind
    /// Children whose every action this node receives (it always receives their delegates).
    public let observes: [String]
    /// A collection's instances when its parent is created (`ids = ["a", "b"]`).
    public let ids: [String]
    /// Whether its instances' state is kept across runs (`persist = true`): saved after each
    /// action under ``AppConfig/stateFolder``, and restored when the instance is created.
    public let persists: Bool
    /// Its screen's keys on a terminal (`keys = ["n skip"]`, see ``TerminalSettings``).
    public let keys: [KeyBinding]
    /// The installed LV2 plugin it is (`lv2 = "URI"`), whose URI is then its feature id.
    public let lv2: LV2Plugin?
    public let line: Int

    public init(
      key: String, featureID: String, parent: String?, kind: Kind, observes: [String] = [],
      ids: [String] = [], persists: Bool = false, keys: [KeyBinding] = [], lv2: LV2Plugin? = nil,
      line: Int
    ) {
      self.lv2 = lv2
      self.keys = keys
      self.key = key
      self.featureID = featureID
      self.parent = parent
      self.kind = kind
      self.observes = observes
      self.ids = ids
      self.persists = persists
      self.line = line
    }
  }

  /// An installed LV2 plugin as a feature (`[[feature]] lv2 = "URI"`, docs/SOUND.md).
  public struct LV2Plugin: Sendable, Equatable {
    public let uri: String
    /// `lv2-realtime = false`: it may load though it does not say it is hard-realtime capable.
    public let allowsNonRealtime: Bool
    /// `optional = true`: when it cannot load, the app runs without its sound, saying why.
    public let isOptional: Bool

    /// How `[plugins] load` would name it: `lv2:URI`.
    public var reference: String { "lv2:\(self.uri)" }
  }

  /// A deep link: `/practice/quiz` → node `quiz`.
  public struct Route: Sendable, Equatable {
    public let path: String
    public let node: String
    public let line: Int
  }

  public let file: String
  public let name: String
  /// Where the state of `persist = true` features is kept: `$XDG_STATE_HOME/patchbay/<app
  /// name>/` (`~/.local/state/patchbay/<app name>/` without it). A host may point it elsewhere.
  public var stateFolder: URL
  public let root: String
  public let initialRoute: String?
  public let searchPaths: [String]
  public let plugins: [Plugin]
  /// The plugins that run in a process of their own, by the names `load` gives, or "all".
  public var isolated: [String]
  /// What an isolated plugin's sandbox lets it do after all, by the name `load` gives it:
  /// `[sandbox] Rogue = ["sockets", "exec", "ptrace"]`.
  public var sandbox: [String: [String]]
  public let nodes: [Node]
  public let routes: [Route]
  /// `[audio]` and `[midi]`.
  public var sound: SoundSettings
  /// `[limits]`: how much state and view a plugin may write.
  public var limits: OutputLimits
  /// `[terminal]` and `[keys]`: what `patchbay run` shows on a terminal, and its keys.
  public var terminal = TerminalSettings()

  /// The node with `key`.
  public func node(_ key: String) -> Node? { self.nodes.first { $0.key == key } }

  /// The children of `key`, in file order.
  public func children(of key: String) -> [Node] { self.nodes.filter { $0.parent == key } }

  /// The node a route path leads to.
  public func route(_ path: String) -> Route? { self.routes.first { $0.path == path } }

  /// Why `id` cannot name a collection instance, or nil when it can: ids appear in paths
  /// (`home/tallies#a`), so they are short words without `/`, `#` or spaces.
  public static func problem(withInstanceID id: String) -> String? {
    if id.isEmpty { return "an instance id is not empty." }
    if let bad = id.first(where: { $0 == "/" || $0 == "#" || $0.isWhitespace || $0 == "\"" }) {
      return
        "'\(id)' cannot be an instance id: it contains '\(bad)'. Use letters, digits, '-', '_' or '.'."
    }
    return nil
  }
}

extension AppConfig {
  /// `$XDG_STATE_HOME/patchbay/<app>/`, the app's name made a file name.
  static func defaultStateFolder(app: String) -> URL {
    let environment = ProcessInfo.processInfo.environment
    let base =
      environment["XDG_STATE_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
      ?? "\(environment["HOME"] ?? NSHomeDirectory())/.local/state"
    let name = String(
      app.map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" ? $0 : "-" })
    return URL(fileURLWithPath: base).appendingPathComponent("patchbay")
      .appendingPathComponent(name.isEmpty ? "app" : name)
  }

  /// Reads and checks the structure of a config file (not yet the plugins it names: see
  /// ``AppConfig/check(loader:)``). Every problem found is reported, each with its line.
  public init(contentsOf file: String) throws(ConfigErrors) {
    let text: String
    do {
      text = try String(contentsOfFile: file, encoding: .utf8)
    } catch {
      throw ConfigErrors(errors: [
        ConfigError(
          file: file, line: nil, keyPath: "", .unreadable(UnreadableFile.reason(file)))
      ])
    }
    try self.init(parsing: text, file: file)
  }

  /// Parses config text; `file` names it in errors and anchors relative search paths.
  public init(parsing text: String, file: String) throws(ConfigErrors) {
    let document: TOMLDocument
    do {
      document = try TOMLDocument(parsing: text)
    } catch {
      throw ConfigErrors(errors: [
        ConfigError(
          file: file, line: error.line, keyPath: "", .syntax(error.reason, column: error.column))
      ])
    }
    var reader = ConfigReader(file: file)
    reader.checkLayout(document)
    let app = reader.readApp(document.tables["app"])
    let features = document.arrays["feature"] ?? []
    let (searchPaths, load, isolate) = reader.readPlugins(
      document.tables["plugins"], folder: URL(fileURLWithPath: file).deletingLastPathComponent(),
      onlyLV2: !features.isEmpty && features.allSatisfy { $0["lv2"] != nil })
    let pins = reader.readPins(document.tables["sha256"], load: load)
    let sandbox = reader.readSandbox(document.tables["sandbox"], load: load)
    let nodes = reader.readFeatures(features)
    reader.checkIsolatedLV2(document.tables["plugins"], nodes: nodes)
    let routes = reader.readRoutes(document.tables["routes"])
    let sound = reader.readSound(audio: document.tables["audio"], midi: document.tables["midi"])
    let limits = reader.readLimits(document.tables["limits"])
    let terminal = reader.readTerminal(document.tables["terminal"], keys: document.tables["keys"])
    for key in terminal.pinned where !nodes.contains(where: { $0.key == key }) {
      reader.error(
        document.tables["terminal"]?.line, "terminal.pinned",
        .pinnedUnknown(key, keys: nodes.map(\.key)))
    }
    reader.checkTree(nodes: nodes, routes: routes, app: app, table: document.tables["app"])

    guard reader.errors.isEmpty else { throw ConfigErrors(errors: reader.errors) }
    self.file = file
    self.name = app.name
    self.stateFolder = Self.defaultStateFolder(app: app.name)
    self.root = app.root
    self.initialRoute = app.initialRoute
    self.searchPaths = searchPaths
    self.isolated = isolate
    self.sandbox = sandbox
    let folder = URL(fileURLWithPath: file).deletingLastPathComponent()
    var plugins = load.map {
      Plugin(reference: $0.value, line: $0.line, sha256: pins[$0.value], folder: folder)
    }
    for node in nodes {
      guard let lv2 = node.lv2, !plugins.contains(where: { $0.reference == lv2.reference }) else {
        continue
      }
      plugins.append(
        Plugin(reference: lv2.reference, line: node.line, keyPath: "feature \"\(node.key)\".lv2"))
    }
    self.plugins = plugins
    self.nodes = nodes
    self.routes = routes
    self.sound = sound
    self.limits = limits
    self.terminal = terminal
  }
}
