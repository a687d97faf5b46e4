import Foundation

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
  /// How a feature node lives in the tree (DESIGN §4).
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
    public let reference: String
    public let line: Int
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
    public let line: Int

    public init(
      key: String, featureID: String, parent: String?, kind: Kind, observes: [String] = [],
      ids: [String] = [], line: Int
    ) {
      self.key = key
      self.featureID = featureID
      self.parent = parent
      self.kind = kind
      self.observes = observes
      self.ids = ids
      self.line = line
    }
  }

  /// A deep link: `/practice/quiz` → node `quiz`.
  public struct Route: Sendable, Equatable {
    public let path: String
    public let node: String
    public let line: Int
  }

  public let file: String
  public let name: String
  public let root: String
  public let initialRoute: String?
  public let searchPaths: [String]
  public let plugins: [Plugin]
  public let nodes: [Node]
  public let routes: [Route]

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
  /// Reads and checks the structure of a config file (not yet the plugins it names: see
  /// ``AppConfig/check(loader:)``). Every problem found is reported, each with its line.
  public init(contentsOf file: String) throws(ConfigErrors) {
    let text: String
    do {
      text = try String(contentsOfFile: file, encoding: .utf8)
    } catch {
      throw ConfigErrors(errors: [
        ConfigError(
          file: file, line: nil, keyPath: "", "cannot read the file: \(error.localizedDescription)")
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
          file: file, line: error.line, keyPath: "", "\(error.reason) (column \(error.column))")
      ])
    }
    var reader = ConfigReader(file: file)
    let folder = URL(fileURLWithPath: file).deletingLastPathComponent()

    for header in document.headers
    where !["app", "plugins", "feature", "routes"].contains(header.name) {
      reader.error(
        header.line, "[\(header.name)]",
        "unknown table."
          + suggestion(for: header.name, among: ["app", "plugins", "feature", "routes"])
          + " Expected [app], [plugins], [[feature]] or [routes].")
    }
    for entry in document.root.entries {
      reader.error(
        entry.value.line, entry.key,
        "keys belong in a table ([app], [plugins], [[feature]], [routes]).")
    }
    if document.tables["feature"] != nil {
      reader.error(
        document.tables["feature"]!.line, "[feature]",
        "write [[feature]] (double brackets): there is one per feature.")
    }

    let app = document.tables["app"]
    if app == nil {
      reader.error(nil, "[app]", "missing: add an [app] table with `root = \"<feature key>\"`.")
    }
    app.map { reader.checkKeys($0, allowed: ["name", "root", "initial-route"]) }
    let name =
      app.flatMap { reader.string($0, "name") }
      ?? URL(fileURLWithPath: file).deletingPathExtension().lastPathComponent
    let root = app.flatMap { reader.string($0, "root", required: true) } ?? ""
    let initialRoute = app.flatMap { reader.string($0, "initial-route") }

    let plugins = document.tables["plugins"]
    if plugins == nil {
      reader.error(nil, "[plugins]", "missing: add a [plugins] table with `load = [\"Name\", …]`.")
    }
    plugins.map { reader.checkKeys($0, allowed: ["search-paths", "load"]) }
    let searchPaths = (plugins.flatMap { reader.strings($0, "search-paths") } ?? []).map {
      $0.value
    }
    .map { $0.hasPrefix("/") ? $0 : folder.appendingPathComponent($0).standardizedFileURL.path }
    let load = plugins.flatMap { reader.strings($0, "load", required: true) } ?? []

    var nodes: [Node] = []
    for table in document.arrays["feature"] ?? [] {
      reader.checkKeys(table, allowed: ["key", "id", "parent", "kind", "observe", "ids"])
      guard let key = reader.string(table, "key", required: true),
        let id = reader.string(table, "id", required: true)
      else { continue }
      let parent = reader.string(table, "parent")
      var kind = Kind.child
      if let text = reader.string(table, "kind") {
        if let parsed = Kind(rawValue: text) {
          kind = parsed
        } else {
          reader.error(
            table["kind"]!.line, "\(table.name).kind",
            "'\(text)' is not a kind; expected one of \(Kind.allCases.map(\.rawValue).joined(separator: ", "))."
          )
        }
      }
      if nodes.contains(where: { $0.key == key }) {
        reader.error(
          table["key"]!.line, "\(table.name).key",
          "'\(key)' is used by another feature; keys must be unique.")
        continue
      }
      let observes = (reader.strings(table, "observe") ?? []).map(\.value)
      var ids: [String] = []
      if let entries = reader.strings(table, "ids") {
        if kind != .collection {
          reader.error(
            table["ids"]!.line, "\(table.name).ids",
            "only a collection has ids; add `kind = \"collection\"` or remove `ids`.")
        }
        for (index, entry) in entries.enumerated() {
          if let problem = AppConfig.problem(withInstanceID: entry.value) {
            reader.error(entry.line, "\(table.name).ids[\(index)]", problem)
          } else if ids.contains(entry.value) {
            reader.error(
              entry.line, "\(table.name).ids[\(index)]",
              "'\(entry.value)' is listed twice; ids in a collection are unique.")
          } else {
            ids.append(entry.value)
          }
        }
      }
      nodes.append(
        Node(
          key: key, featureID: id, parent: parent, kind: kind, observes: observes, ids: ids,
          line: table.line))
    }
    if nodes.isEmpty {
      reader.error(nil, "[[feature]]", "no features: add at least the root feature.")
    }

    var routes: [Route] = []
    if let table = document.tables["routes"] {
      for entry in table.entries {
        guard case .string(let target) = entry.value.kind else {
          reader.error(
            entry.value.line, "routes.\"\(entry.key)\"",
            "expected a string (a feature key), found \(entry.value.typeName).")
          continue
        }
        if !entry.key.hasPrefix("/") {
          reader.error(entry.value.line, "routes.\"\(entry.key)\"", "a route path starts with '/'.")
        }
        routes.append(Route(path: entry.key, node: target, line: entry.value.line))
      }
    }

    // The tree: known parents, one root, no cycles; routes lead to known nodes.
    let keys = nodes.map(\.key)
    for node in nodes {
      if let parent = node.parent, !keys.contains(parent) {
        reader.error(
          node.line, "feature \"\(node.key)\".parent",
          "'\(parent)' is not a feature key.\(suggestion(for: parent, among: keys))")
      }
      var seen: [String] = [node.key]
      var current = node.parent
      while let key = current, let next = nodes.first(where: { $0.key == key }) {
        if seen.contains(key) {
          reader.error(
            node.line, "feature \"\(node.key)\".parent",
            "the tree has a cycle: \((seen + [key]).joined(separator: " → ")). Every chain of parents must end at the root."
          )
          break
        }
        seen.append(key)
        current = next.parent
      }
    }
    if !root.isEmpty {
      if let rootNode = nodes.first(where: { $0.key == root }) {
        if rootNode.parent != nil {
          reader.error(
            rootNode.line, "feature \"\(root)\".parent", "the root feature has no parent.")
        }
      } else if !nodes.isEmpty {
        reader.error(
          app?["root"]?.line, "app.root",
          "'\(root)' is not a feature key.\(suggestion(for: root, among: keys))")
      }
    }
    for node in nodes where node.parent == nil && node.key != root && !root.isEmpty {
      reader.error(
        node.line, "feature \"\(node.key)\"",
        "has no parent: give it `parent = \"…\"` (only the root, '\(root)', has none).")
    }
    for node in nodes {
      for child in node.observes
      where !nodes.contains(where: { $0.key == child && $0.parent == node.key }) {
        reader.error(
          node.line, "feature \"\(node.key)\".observe",
          "'\(child)' is not a child of '\(node.key)'.")
      }
    }
    for route in routes where !keys.contains(route.node) {
      reader.error(
        route.line, "routes.\"\(route.path)\"",
        "'\(route.node)' is not a feature key.\(suggestion(for: route.node, among: keys))")
    }
    for route in routes {
      if let node = nodes.first(where: { $0.key == route.node }), node.kind == .collection {
        reader.error(
          route.line, "routes.\"\(route.path)\"",
          "'\(route.node)' is a collection, whose instances live with its parent; route to the parent instead."
        )
      }
    }
    for node in nodes where node.kind != .child {
      if let parent = nodes.first(where: { $0.key == node.parent }), parent.kind == .collection {
        reader.error(
          node.line, "feature \"\(node.key)\".kind",
          "'\(parent.key)' is a collection; what lives under its instances is a `child`, not a \(node.kind.rawValue)."
        )
      }
    }
    if let initialRoute, !routes.contains(where: { $0.path == initialRoute }) {
      reader.error(
        app?["initial-route"]?.line, "app.initial-route",
        "'\(initialRoute)' is not a route in [routes].")
    }

    guard reader.errors.isEmpty else { throw ConfigErrors(errors: reader.errors) }
    self.file = file
    self.name = name
    self.root = root
    self.initialRoute = initialRoute
    self.searchPaths = searchPaths
    self.plugins = load.map { Plugin(reference: $0.value, line: $0.line) }
    self.nodes = nodes
    self.routes = routes
  }
}

/// Reads typed values out of tables, collecting errors instead of stopping at the first.
struct ConfigReader {
  let file: String
  var errors: [ConfigError] = []

  mutating func error(_ line: Int?, _ keyPath: String, _ reason: String) {
    self.errors.append(ConfigError(file: self.file, line: line, keyPath: keyPath, reason))
  }

  mutating func checkKeys(_ table: TOMLDocument.Table, allowed: [String]) {
    for entry in table.entries where !allowed.contains(entry.key) {
      self.error(
        entry.value.line, "\(table.name).\(entry.key)",
        "unknown key.\(suggestion(for: entry.key, among: allowed)) Expected: \(allowed.joined(separator: ", "))."
      )
    }
  }

  mutating func string(_ table: TOMLDocument.Table, _ key: String, required: Bool = false)
    -> String?
  {
    guard let value = table[key] else {
      if required {
        self.error(
          table.line == 0 ? nil : table.line, "\(table.name).\(key)", "missing: expected a string.")
      }
      return nil
    }
    guard case .string(let string) = value.kind else {
      self.error(value.line, "\(table.name).\(key)", "expected a string, found \(value.typeName).")
      return nil
    }
    return string
  }

  mutating func strings(_ table: TOMLDocument.Table, _ key: String, required: Bool = false) -> [(
    value: String, line: Int
  )]? {
    guard let value = table[key] else {
      if required {
        self.error(table.line, "\(table.name).\(key)", "missing: expected an array of strings.")
      }
      return nil
    }
    guard case .array(let elements) = value.kind else {
      self.error(
        value.line, "\(table.name).\(key)", "expected an array of strings, found \(value.typeName)."
      )
      return nil
    }
    var result: [(String, Int)] = []
    for (index, element) in elements.enumerated() {
      guard case .string(let string) = element.kind else {
        self.error(
          element.line, "\(table.name).\(key)[\(index)]",
          "expected a string, found \(element.typeName).")
        continue
      }
      result.append((string, element.line))
    }
    return result
  }
}
