import Foundation
import PatchbayConfig
import Testing

/// Strings from plugins never reach the terminal raw: control characters are shown as
/// `\u{…}` escapes.
@Suite struct TerminalSafetyTests {
  /// A folder of its own, removed by the caller.
  func folder() throws -> URL {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    return folder
  }

  @Test func viewsAndActionTextsShowEscapesVisibly() async throws {
    let folder = try self.folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let script = folder.appendingPathComponent("escapes.script")
    // An ESC that clears the screen, an OSC that sets the window title, a bell.
    try "push echo\nsend echo say(text: \"\u{1B}[2J\u{1B}]0;pwned\u{07}hi\")\nrender echo\n"
      .write(to: script, atomically: true, encoding: .utf8)
    let result = try await CLI.run(
      "run", "\(CheckTests.root)/host-config/app.toml", "--script", script.path,
      "--print-changes")
    #expect(result.exitCode == 0, "\(result.stderr)")
    #expect(!result.stdout.unicodeScalars.contains("\u{1B}"))
    #expect(!result.stdout.unicodeScalars.contains("\u{07}"))
    // The view (plain text from Echo, which writes the message through pb_sdk_write_plain;
    // the terminal escapes what a plugin writes raw, as `\u{1B}`), and the action's text in
    // --print-changes (escaped by Echo's pb_format_value_text, as the text grammar does).
    #expect(result.stdout.contains("Last:\n\\u{1b}[2J\\u{1b}]0;pwned\\u{7}hi"))
    #expect(result.stdout.contains("say(text: \"\\u{1b}[2J\\u{1b}]0;pwned\\u{7}hi\")"))
  }

  /// A view a plugin writes raw (the Flawed fixture's `escapes`, which `patchbay validate`
  /// fails) still reaches the terminal escaped.
  @Test func aRawEscapeInAViewIsShownVisibly() async throws {
    let folder = try self.folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let plugin = folder.appendingPathComponent("escapes.so").path
    try FileManager.default.copyItem(
      atPath: "\(CLI.directory)/libTestFixtureFlawed.so", toPath: plugin)
    let config = folder.appendingPathComponent("app.toml")
    try AppConfig.oneFeature("dev.patchbay.fixture.flawed", of: plugin)
      .write(to: config, atomically: true, encoding: .utf8)
    let script = folder.appendingPathComponent("render.script")
    try "render f\n".write(to: script, atomically: true, encoding: .utf8)
    let result = try await CLI.run("run", config.path, "--script", script.path)
    #expect(result.exitCode == 0, "\(result.stderr)")
    #expect(!result.stdout.unicodeScalars.contains("\u{1B}"))
    #expect(result.stdout.contains("\\u{1B}[1mCount: 0"), "\(result.stdout)")
  }

  @Test func inspectShowsAPluginsNamesAndSummariesSafely() async throws {
    let folder = try self.folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let plugin = folder.appendingPathComponent("escapes.so").path
    try FileManager.default.copyItem(
      atPath: "\(CLI.directory)/libTestFixtureMisbehaving.so", toPath: plugin)
    let text = try await CLI.run("inspect", plugin)
    #expect(text.exitCode == 0, "\(text.stderr)")
    #expect(!text.stdout.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" })
    #expect(text.stdout.contains("Fixture\\u{1B}[2J"))
    #expect(text.stdout.contains("wipes\\u{1B}]0;pwned\\u{7} the screen\\u{D}"))
    // JSON keeps JSON's own escapes.
    let json = try await CLI.run("inspect", plugin, "--json")
    #expect(json.stdout.contains("wipes\\u001b]0;pwned\\u0007 the screen\\r"))
  }
}
