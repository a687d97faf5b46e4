import Foundation
import PatchbayConfig
import PatchbayHost
import Testing

private let valid = """
  [app]
  name = "Test"
  root = "home"
  initial-route = "/"

  [plugins]
  search-paths = ["plugins"]
  load = ["Counter", "Echo"]

  [[feature]]
  key = "home"
  id = "dev.patchbay.counter"

  [[feature]]
  key = "echo"
  id = "dev.patchbay.echo"
  parent = "home"
  kind = "stack"

  [routes]
  "/" = "home"
  "/echo" = "echo"
  """

@Suite struct AppConfigTests {
  @Test func readsAValidConfig() throws {
    let config = try AppConfig(parsing: valid, file: "/configs/app.toml")
    #expect(config.name == "Test")
    #expect(config.root == "home")
    #expect(config.initialRoute == "/")
    #expect(config.searchPaths == ["/configs/plugins"])
    #expect(config.plugins.map(\.reference) == ["Counter", "Echo"])
    #expect(config.nodes.map(\.key) == ["home", "echo"])
    #expect(config.node("echo")?.kind == .stack)
    #expect(config.node("echo")?.parent == "home")
    #expect(config.children(of: "home").map(\.key) == ["echo"])
    #expect(config.route("/echo")?.node == "echo")
  }

  @Test func theShippedConfigChecksOutWithItsPlugins() throws {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    let config = try AppConfig(
      contentsOf: root.appendingPathComponent("host-config/counter-echo.toml").path)
    let registry = try config.loadPlugins(
      with: config.loader(firstSearchPaths: [BuiltPlugins.directory]))
    #expect(registry.featureIDs == ["dev.patchbay.counter", "dev.patchbay.echo"])
  }

  private func errors(_ text: String) -> [String] {
    do {
      _ = try AppConfig(parsing: text, file: "app.toml")
      return []
    } catch {
      return error.errors.map(\.description)
    }
  }

  @Test func unknownKeysAndTablesAreNamedWithASuggestion() {
    let text = valid.replacingOccurrences(of: "search-paths", with: "serch-paths")
      .replacingOccurrences(of: "[routes]", with: "[routs]")
    #expect(
      errors(text) == [
        "app.toml:20: [routs]: unknown table. Did you mean 'routes'? Expected [app], [plugins], [sha256], [sandbox], [[feature]], [routes], [audio], [midi], [limits], [terminal] or [keys].",
        "app.toml:7: plugins.serch-paths: unknown key. Did you mean 'search-paths'? Expected: search-paths, load, isolate.",
        "app.toml:4: app.initial-route: '/' is not a route in [routes].",
      ])
  }

  @Test func wrongValueTypes() {
    let text = valid.replacingOccurrences(of: "name = \"Test\"", with: "name = 3")
      .replacingOccurrences(of: "load = [\"Counter\", \"Echo\"]", with: "load = [\"Counter\", 2]")
      .replacingOccurrences(of: "kind = \"stack\"", with: "kind = \"stacked\"")
    #expect(
      errors(text) == [
        "app.toml:2: app.name: expected a string, found an integer.",
        "app.toml:8: plugins.load[1]: expected a string, found an integer.",
        "app.toml:18: feature[1].kind: 'stacked' is not a kind; expected one of child, stack, presented, collection.",
      ])
  }

  /// A native plugin's sandbox allows sockets, exec, ptrace; a wasm plugin's, the services it
  /// may import: each is told the other's words are not its own.
  @Test func aSandboxLineTakesTheWordsOfItsPluginsKind() throws {
    let text = valid.replacingOccurrences(
      of: "load = [\"Counter\", \"Echo\"]",
      with: "load = [\"Counter\", \"Echo\", \"Keys.wasm\"]\n"
        + "[sandbox]\nEcho = [\"midi\"]\n\"Keys.wasm\" = [\"midi\", \"sockets\"]")
    #expect(
      errors(text) == [
        "app.toml:10: sandbox.Echo: 'midi' is not something a sandbox allows this plugin: use \"sockets\", \"exec\" or \"ptrace\".",
        "app.toml:11: sandbox.Keys.wasm: 'sockets' is not something a sandbox allows this plugin: use \"midi\", \"navigation\", \"shared\" or \"functions\".",
      ])
    let granted = try AppConfig(
      parsing: valid.replacingOccurrences(
        of: "load = [\"Counter\", \"Echo\"]",
        with:
          "load = [\"Counter\", \"Keys.wasm\"]\n[sandbox]\n\"Keys.wasm\" = [\"midi\", \"shared\"]"),
      file: "app.toml")
    #expect(granted.sandbox["Keys.wasm"] == ["midi", "shared"])
  }

  private func reasons(_ text: String) -> [ConfigError.Reason] {
    do {
      _ = try AppConfig(parsing: text, file: "app.toml")
      return []
    } catch {
      return error.errors.map(\.reason)
    }
  }

  /// Tests match what is wrong as a case; the words are made from it.
  @Test func problemsAreReasonsWithTheirLineAndKey() throws {
    let text = valid.replacingOccurrences(
      of: "id = \"dev.patchbay.counter\"", with: "id = \"dev.patchbay.counter\"\nparent = \"echo\""
    )
    .replacingOccurrences(of: "kind = \"stack\"", with: "kind = \"stacked\"")
    #expect(
      reasons(text) == [
        .notAKind("stacked"), .parentCycle(["home", "echo", "home"]),
        .parentCycle(["echo", "home", "echo"]), .rootHasParent,
      ])
    let error = try #require(throws: ConfigErrors.self) {
      try AppConfig(parsing: text, file: "app.toml")
    }
    #expect(error.errors[1].line == 10)
    #expect(error.errors[1].keyPath == "feature \"home\".parent")
    #expect(reasons("[routes]\n\"/\" = \"x\"").last == .notAFeatureKey("x", keys: []))
  }

  @Test func cycleInTheTree() {
    let text = valid.replacingOccurrences(
      of: "id = \"dev.patchbay.counter\"", with: "id = \"dev.patchbay.counter\"\nparent = \"echo\"")
    let found = errors(text)
    #expect(
      found.contains(
        "app.toml:10: feature \"home\".parent: the tree has a cycle: home → echo → home. Every chain of parents must end at the root."
      ))
    #expect(found.contains("app.toml:10: feature \"home\".parent: the root feature has no parent."))
  }

  @Test func unknownParentAndRouteTargetsSuggestTheKey() {
    let text = valid.replacingOccurrences(of: "parent = \"home\"", with: "parent = \"hom\"")
      .replacingOccurrences(of: "\"/echo\" = \"echo\"", with: "\"/echo\" = \"ecko\"")
    #expect(
      errors(text) == [
        "app.toml:14: feature \"echo\".parent: 'hom' is not a feature key. Did you mean 'home'?",
        "app.toml:22: routes.\"/echo\": 'ecko' is not a feature key. Did you mean 'echo'?",
      ])
  }

  @Test func duplicateRoute() {
    let text = valid + "\n\"/echo\" = \"home\""
    #expect(errors(text) == ["app.toml:23: key '/echo' is defined twice in [routes] (column 1)"])
  }

  @Test func collections() throws {
    let text =
      valid + """

        [[feature]]
        key = "tallies"
        id = "dev.patchbay.counter"
        parent = "home"
        kind = "collection"
        ids = ["a", "b"]
        """
    #expect(try AppConfig(parsing: text, file: "app.toml").node("tallies")?.ids == ["a", "b"])
    #expect(
      errors(text.replacingOccurrences(of: #"["a", "b"]"#, with: #"["a", "a/b", "a"]"#)) == [
        "app.toml:28: feature[2].ids[1]: 'a/b' cannot be an instance id: it contains '/'. Use letters, digits, '-', '_' or '.'.",
        "app.toml:28: feature[2].ids[2]: 'a' is listed twice; ids in a collection are unique.",
      ])
    #expect(
      errors(text.replacingOccurrences(of: #"kind = "collection""#, with: #"kind = "child""#)) == [
        "app.toml:28: feature[2].ids: only a collection has ids; add `kind = \"collection\"` or remove `ids`."
      ])
    #expect(
      errors(
        text + "\n[[feature]]\nkey = \"x\"\nid = \"x\"\nparent = \"tallies\"\nkind = \"stack\"")
        == [
          "app.toml:29: feature \"x\".kind: 'tallies' is a collection; what lives under its instances is a `child`, not a stack."
        ])
    let routed = text.replacingOccurrences(
      of: "\"/echo\" = \"echo\"", with: "\"/echo\" = \"echo\"\n\"/t\" = \"tallies\"")
    #expect(
      errors(routed) == [
        "app.toml:23: routes.\"/t\": 'tallies' is a collection, whose instances live with its parent; route to the parent instead."
      ])
  }

  @Test func missingTablesAndRoot() {
    #expect(
      errors("[routes]\n\"/\" = \"x\"") == [
        "app.toml: [app]: missing: add an [app] table with `root = \"<feature key>\"`.",
        "app.toml: [plugins]: missing: add a [plugins] table with `load = [\"Name\", …]`.",
        "app.toml: [[feature]]: no features: add at least the root feature.",
        "app.toml:2: routes.\"/\": 'x' is not a feature key.",
      ])
  }

  @Test func unknownPluginAndUnknownFeatureID() throws {
    let text = valid.replacingOccurrences(
      of: "load = [\"Counter\", \"Echo\"]", with: "load = [\"Counter\", \"Ekko\"]")
    let config = try AppConfig(parsing: text, file: "app.toml")
    let loader = config.loader(firstSearchPaths: [BuiltPlugins.directory])
    do {
      _ = try config.loadPlugins(with: loader)
      Issue.record("expected errors")
    } catch {
      #expect(error.errors.count == 2)
      #expect(
        error.errors[0].description.hasPrefix(
          "app.toml:8: plugins.load[1]: Ekko: no libEkko.so in "))
      #expect(
        error.errors[1].description
          == "app.toml:14: feature \"echo\".id: no loaded plugin declares 'dev.patchbay.echo'. Known: dev.patchbay.counter."
      )
    }
  }
}
