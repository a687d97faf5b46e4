import Foundation
import PatchbayTOML
import PatchbayWasm

/// `AppConfig`'s reader, one table at a time. Each method collects what is wrong with its
/// table (file, line, key, reason) and reads what it can, so one run lists every error.
extension ConfigReader {
  /// The tables there may be, and nothing outside them.
  mutating func checkLayout(_ document: TOMLDocument) {
    for header in document.headers
    where ConfigSchema.table(header.name) == nil {
      self.error(
        header.line, "[\(header.name)]",
        .unknownTable(header.name))
    }
    for entry in document.root.entries {
      self.error(entry.value.line, entry.key, .keyOutsideTables)
    }
    if document.tables["feature"] != nil {
      self.error(
        document.tables["feature"]!.line, "[feature]",
        .singleBracketFeature)
    }
  }

  /// `[app]`: the name, the root feature, the route to start at.
  mutating func readApp(_ app: TOMLDocument.Table?) -> (
    name: String, root: String, initialRoute: String?
  ) {
    if app == nil {
      self.error(nil, "[app]", .missingTable("app"))
    }
    app.map { self.checkKeys($0, in: "app") }
    let name =
      app.flatMap { self.string($0, "name") }
      ?? URL(fileURLWithPath: self.file).deletingPathExtension().lastPathComponent
    let root = app.flatMap { self.string($0, "root", required: true) } ?? ""
    let initialRoute = app.flatMap { self.string($0, "initial-route") }
    return (name, root, initialRoute)
  }

  /// `[plugins]`: where to look, and what to load.
  /// An app of LV2 features only (`onlyLV2`) needs none.
  mutating func readPlugins(_ plugins: TOMLDocument.Table?, folder: URL, onlyLV2: Bool = false)
    -> (searchPaths: [String], load: [(value: String, line: Int)], isolate: [String])
  {
    if plugins == nil, !onlyLV2 {
      self.error(nil, "[plugins]", .missingTable("plugins"))
    }
    plugins.map { self.checkKeys($0, in: "plugins") }
    let searchPaths = (plugins.flatMap { self.strings($0, "search-paths") } ?? []).map {
      $0.value
    }
    .map { $0.hasPrefix("/") ? $0 : folder.appendingPathComponent($0).standardizedFileURL.path }
    let load = plugins.flatMap { self.strings($0, "load", required: true) } ?? []
    let isolate = plugins.flatMap { self.strings($0, "isolate") } ?? []
    // `lv2:URI` names an LV2 feature: checked against the features (``checkIsolatedLV2``).
    for name in isolate
    where name.value != "all" && !name.value.hasPrefix("lv2:")
      && !load.contains(where: { $0.value == name.value })
    {
      self.error(name.line, "plugins.isolate", .isolatesUnloadedPlugin(name.value))
    }
    return (searchPaths, load, isolate.map(\.value))
  }

  /// `[sha256]`: optional pins, `REFERENCE = "64 hex digits"` for plugins `load` names.
  mutating func readPins(_ table: TOMLDocument.Table?, load: [(value: String, line: Int)])
    -> [String: String]
  {
    guard let table else { return [:] }
    var pins: [String: String] = [:]
    for (key, value) in table.entries {
      guard case .string(let text) = value.kind else {
        self.error(
          value.line, "sha256.\(key)", .wrongType(expected: "a string", found: value.typeName))
        continue
      }
      let hash = text.lowercased()
      guard hash.count == 64, hash.allSatisfy(\.isHexDigit) else {
        self.error(value.line, "sha256.\(key)", .badPin(text))
        continue
      }
      guard load.contains(where: { $0.value == key }) else {
        self.error(value.line, "sha256.\(key)", .pinsUnloadedPlugin(key))
        continue
      }
      pins[key] = hash
    }
    return pins
  }

  /// `[sandbox]`: optional, `REFERENCE = ["sockets", "exec", "ptrace"]` for plugins `load`
  /// names: what an isolated plugin's sandbox lets it do after all; for a `.wasm` plugin,
  /// the services it may import (`["midi", "navigation", "shared", "functions"]`).
  mutating func readSandbox(_ table: TOMLDocument.Table?, load: [(value: String, line: Int)])
    -> [String: [String]]
  {
    guard let table else { return [:] }
    var sandbox: [String: [String]] = [:]
    for (key, value) in table.entries {
      guard load.contains(where: { $0.value == key }) else {
        self.error(value.line, "sandbox.\(key)", .sandboxesUnloadedPlugin(key))
        continue
      }
      guard let allowed = self.strings(table, key) else { continue }
      let known =
        key.hasSuffix(".wasm")
        ? WasmCapability.allCases.map(\.rawValue) : ["sockets", "exec", "ptrace"]
      for entry in allowed where !known.contains(entry.value) {
        self.error(
          entry.line, "sandbox.\(key)", .unknownSandboxAllowance(entry.value, known: known))
      }
      sandbox[key] = allowed.map(\.value)
    }
    return sandbox
  }

  /// `isolate = ["lv2:URI"]` names an LV2 feature of the app.
  mutating func checkIsolatedLV2(_ table: TOMLDocument.Table?, nodes: [AppConfig.Node]) {
    for name in (table.flatMap { self.strings($0, "isolate") } ?? [])
    where name.value.hasPrefix("lv2:")
      && !nodes.contains(where: { $0.lv2?.reference == name.value })
    {
      self.error(name.line, "plugins.isolate", .isolatesUnloadedPlugin(name.value))
    }
  }

  /// `[[feature]]`: one node of the tree each.
  mutating func readFeatures(_ tables: [TOMLDocument.Table]) -> [AppConfig.Node] {
    var nodes: [AppConfig.Node] = []
    for table in tables {
      self.checkKeys(table, in: "feature")
      let lv2 = self.string(table, "lv2")
      if lv2 != nil, let id = table["id"] { self.error(id.line, "\(table.name).id", .idBesideLV2) }
      let allowsNonRealtime = self.bool(table, "lv2-realtime").map { !$0 }
      let optional = self.bool(table, "optional")
      for key in ["lv2-realtime", "optional"] where lv2 == nil && table[key] != nil {
        self.error(table[key]!.line, "\(table.name).\(key)", .lv2KeyAlone(key))
      }
      guard let key = self.string(table, "key", required: true),
        let id = lv2 ?? self.string(table, "id", required: true)
      else { continue }
      let parent = self.string(table, "parent")
      var kind = AppConfig.Kind.child
      if let text = self.string(table, "kind") {
        if let parsed = AppConfig.Kind(rawValue: text) {
          kind = parsed
        } else {
          self.error(
            table["kind"]!.line, "\(table.name).kind",
            .notAKind(text))
        }
      }
      if nodes.contains(where: { $0.key == key }) {
        self.error(
          table["key"]!.line, "\(table.name).key",
          .duplicateKey(key))
        continue
      }
      let observes = (self.strings(table, "observe") ?? []).map(\.value)
      var ids: [String] = []
      if let entries = self.strings(table, "ids") {
        if kind != .collection {
          self.error(
            table["ids"]!.line, "\(table.name).ids",
            .idsOutsideCollection)
        }
        for (index, entry) in entries.enumerated() {
          if let problem = AppConfig.problem(withInstanceID: entry.value) {
            self.error(entry.line, "\(table.name).ids[\(index)]", .invalidID(problem))
          } else if ids.contains(entry.value) {
            self.error(
              entry.line, "\(table.name).ids[\(index)]",
              .duplicateID(entry.value))
          } else {
            ids.append(entry.value)
          }
        }
      }
      nodes.append(
        AppConfig.Node(
          key: key, featureID: id, parent: parent, kind: kind, observes: observes, ids: ids,
          persists: self.bool(table, "persist") ?? false, keys: self.readNodeKeys(table),
          lv2: lv2.map {
            AppConfig.LV2Plugin(
              uri: $0, allowsNonRealtime: allowsNonRealtime ?? false, isOptional: optional ?? false)
          },
          line: table.line))
    }
    if nodes.isEmpty {
      self.error(nil, "[[feature]]", .noFeatures)
    }
    return nodes
  }

  /// `[routes]`: deep links to nodes.
  mutating func readRoutes(_ table: TOMLDocument.Table?) -> [AppConfig.Route] {
    var routes: [AppConfig.Route] = []
    if let table {
      for entry in table.entries {
        guard case .string(let target) = entry.value.kind else {
          self.error(
            entry.value.line, "routes.\"\(entry.key)\"",
            .wrongType(expected: "a string (a feature key)", found: entry.value.typeName))
          continue
        }
        if !entry.key.hasPrefix("/") {
          self.error(entry.value.line, "routes.\"\(entry.key)\"", .routeNotAbsolute)
        }
        routes.append(AppConfig.Route(path: entry.key, node: target, line: entry.value.line))
      }
    }
    return routes
  }

  /// The tree as a whole: known parents, one root, no cycles, routes to known nodes.
  mutating func checkTree(
    nodes: [AppConfig.Node], routes: [AppConfig.Route],
    app: (name: String, root: String, initialRoute: String?), table: TOMLDocument.Table?
  ) {
    let root = app.root
    let initialRoute = app.initialRoute
    // The tree: known parents, one root, no cycles; routes lead to known nodes.
    let keys = nodes.map(\.key)
    for node in nodes {
      if let parent = node.parent, !keys.contains(parent) {
        self.error(
          node.line, "feature \"\(node.key)\".parent",
          .notAFeatureKey(parent, keys: keys))
      }
      var seen: [String] = [node.key]
      var current = node.parent
      while let key = current, let next = nodes.first(where: { $0.key == key }) {
        if seen.contains(key) {
          self.error(
            node.line, "feature \"\(node.key)\".parent",
            .parentCycle(seen + [key]))
          break
        }
        seen.append(key)
        current = next.parent
      }
    }
    if !root.isEmpty {
      if let rootNode = nodes.first(where: { $0.key == root }) {
        if rootNode.parent != nil {
          self.error(
            rootNode.line, "feature \"\(root)\".parent", .rootHasParent)
        }
      } else if !nodes.isEmpty {
        self.error(
          table?["root"]?.line, "app.root",
          .notAFeatureKey(root, keys: keys))
      }
    }
    for node in nodes where node.parent == nil && node.key != root && !root.isEmpty {
      self.error(
        node.line, "feature \"\(node.key)\"",
        .noParent(root: root))
    }
    for node in nodes {
      for child in node.observes
      where !nodes.contains(where: { $0.key == child && $0.parent == node.key }) {
        self.error(
          node.line, "feature \"\(node.key)\".observe",
          .observesNonChild(child: child, parent: node.key))
      }
    }
    for route in routes where !keys.contains(route.node) {
      self.error(
        route.line, "routes.\"\(route.path)\"",
        .notAFeatureKey(route.node, keys: keys))
    }
    for route in routes {
      if let node = nodes.first(where: { $0.key == route.node }), node.kind == .collection {
        self.error(
          route.line, "routes.\"\(route.path)\"",
          .routeToCollection(route.node))
      }
    }
    for node in nodes where node.kind != .child {
      if let parent = nodes.first(where: { $0.key == node.parent }), parent.kind == .collection {
        self.error(
          node.line, "feature \"\(node.key)\".kind",
          .kindUnderCollection(collection: parent.key, kind: node.kind.rawValue))
      }
    }
    if let initialRoute, !routes.contains(where: { $0.path == initialRoute }) {
      self.error(
        table?["initial-route"]?.line, "app.initial-route",
        .unknownInitialRoute(initialRoute))
    }
  }
}
