import Foundation
import PatchbayScript
import Testing

/// The script language is defined once (`ScriptLanguage`); docs/APPS.md's table is made from it.
@Suite struct ScriptLanguageTests {
  static let readme = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("docs/APPS.md")

  @Test func theReadmeTableIsTheLanguage() throws {
    let text = try String(contentsOf: Self.readme, encoding: .utf8)
    let start = try #require(text.range(of: "<!-- script-commands -->\n"))
    let end = try #require(text.range(of: "\n<!-- /script-commands -->"))
    let table = String(text[start.upperBound..<end.lowerBound])
    #expect(
      table == ScriptLanguage.markdownTable,
      "docs/APPS.md's script table differs from ScriptLanguage: paste ScriptLanguage.markdownTable")
  }

  @Test func everyWordIsACommandAndUsageNamesItsExample() {
    #expect(
      ScriptLanguage.words == [
        "send", "push", "pop", "present", "dismiss", "add", "remove", "swap", "call", "route",
        "state", "render", "expect", "wait", "settle", "quit",
      ])
    #expect(ScriptLanguage.usage("wait swap") == "usage: wait swap [MS] (wait swap 60000)")
    for command in ScriptLanguage.commands {
      #expect(command.example.hasPrefix(command.name), "\(command.name)")
    }
  }

  @Test func theHelpListFitsEightyColumns() {
    let lines = ScriptLanguage.helpText.split(separator: "\n")
    #expect(lines.count >= ScriptLanguage.commands.count)
    #expect(lines.allSatisfy { $0.count <= 80 }, "\(lines.filter { $0.count > 80 })")
    for command in ScriptLanguage.commands {
      #expect(lines.contains { $0.hasPrefix("  \(command.usage) ") }, "\(command.usage)")
    }
  }
}
