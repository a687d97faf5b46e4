import Foundation
import Testing

@Suite struct CheckTests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().path

  @Test func theDefaultConfigChecksOut() async throws {
    let result = try await CLI.run("check", "\(Self.root)/host-config/counter-echo.toml")
    #expect(result.exitCode == 0)
    #expect(result.stdout.contains("ok — 2 plugin(s), 2 feature(s), 2 route(s), root 'counter'"))
  }

  @Test func everyProblemIsALineWithFileAndLine() async throws {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent(
      "\(UUID().uuidString).toml")
    try """
    [app]
    root = "home"
    colour = "red"

    [plugins]
    load = ["Counter"]

    [[feature]]
    key = "home"
    id = "dev.patchbay.counterr"
    """.write(to: file, atomically: true, encoding: .utf8)
    let result = try await CLI.run("check", file.path)
    #expect(result.exitCode == 1)
    #expect(
      result.stderr.contains(
        "\(file.path):3: app.colour: unknown key. Expected: name, root, initial-route."))
    let structural = try await CLI.run("check", file.path)
    #expect(structural.stderr.split(separator: "\n").count == 1)
    try String(contentsOf: file, encoding: .utf8).replacingOccurrences(
      of: "colour = \"red\"\n", with: ""
    )
    .write(to: file, atomically: true, encoding: .utf8)
    let plugins = try await CLI.run("check", file.path)
    #expect(plugins.exitCode == 1)
    #expect(
      plugins.stderr.contains(
        "feature \"home\".id: no loaded plugin declares 'dev.patchbay.counterr'. Did you mean 'dev.patchbay.counter'?"
      ))
  }

  /// Every key binding is checked against the loaded plugins: its path names features from
  /// the root, its action parses as one of that feature's.
  @Test func keyBindingsAreCheckedAgainstThePlugins() async throws {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent(
      "\(UUID().uuidString).toml")
    try """
    [app]
    root = "counter"

    [plugins]
    load = ["Counter"]

    [keys]
    space = "countr increment"
    "+" = "counter incremnt"
    "=" = "counter increment"

    [[feature]]
    key = "counter"
    id = "dev.patchbay.counter"
    keys = ["i increment", "s strat"]
    """.write(to: file, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(at: file) }
    let result = try await CLI.run("check", file.path)
    #expect(result.exitCode == 1)
    let lines = result.stderr.split(separator: "\n").map(String.init)
    #expect(
      lines.contains {
        $0.hasSuffix(
          "\(file.path):15: feature \"counter\".keys[1]: 'strat' is not an action of "
            + "dev.patchbay.counter: cannot parse action 'strat': unknown action 'strat'. "
            + "Actions: increment, decrement, reset, setStep, incrementLater, rampUp, "
            + "delayedIncrement.")
      }, "\(lines)")
    #expect(
      lines.contains(
        "\(file.path):8: keys.space: 'countr' is not a path of this app: 'countr' is not a "
          + "feature key. Did you mean 'counter'? Write the features from the root, each a child "
          + "of the one before (\"studio/metronome\")."), "\(lines)")
    #expect(
      lines.contains {
        $0.hasPrefix("\(file.path):9: keys.+: 'incremnt' is not an action")
          && $0.hasSuffix("Did you mean 'increment'?")
      }, "\(lines)")
    #expect(lines.count == 3, "\(lines)")  // the good bindings pass
  }

  @Test func missingConfigFile() async throws {
    let result = try await CLI.run("check", "/nowhere/app.toml")
    #expect(result.exitCode == 1)
    #expect(result.stderr.contains("/nowhere/app.toml: cannot read the file"))
  }
}
