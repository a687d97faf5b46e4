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

  @Test func missingConfigFile() async throws {
    let result = try await CLI.run("check", "/nowhere/app.toml")
    #expect(result.exitCode == 1)
    #expect(result.stderr.contains("/nowhere/app.toml: cannot read the file"))
  }
}
