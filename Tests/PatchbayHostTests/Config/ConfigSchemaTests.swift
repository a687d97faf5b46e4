import Foundation
import PatchbayConfig
import Testing

/// The config's tables and keys are listed once (`ConfigSchema`): the reader accepts exactly
/// them, docs/CONFIG.md is made from them, and every TOML example in the docs uses only them.
@Suite struct ConfigSchemaTests {
  static let root = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

  @Test func docsConfigIsTheSchema() throws {
    let text = try String(
      contentsOf: Self.root.appendingPathComponent("docs/CONFIG.md"), encoding: .utf8)
    let start = try #require(text.range(of: "<!-- config-reference -->\n"))
    let end = try #require(text.range(of: "<!-- /config-reference -->"))
    #expect(
      String(text[start.upperBound..<end.lowerBound]) == ConfigSchema.markdown,
      "docs/CONFIG.md differs from ConfigSchema: paste ConfigSchema.markdown between its markers")
  }

  /// A key the schema does not list is refused, naming the ones it does.
  @Test func theReaderAcceptsTheSchemasKeysOnly() throws {
    #expect {
      try AppConfig(
        parsing:
          "[app]\nroot = \"a\"\n[limits]\ncall-secs = 3\n[[feature]]\nkey = \"a\"\nid = \"x\"",
        file: "a.toml")
    } throws: { error in
      "\(error)".contains(
        "a.toml:4: limits.call-secs: unknown key. Expected: "
          + (ConfigSchema.table("limits")?.keys.map(\.name).joined(separator: ", ") ?? ""))
    }
  }

  /// Every `[table]` and `key =` in the TOML blocks of the README and docs/ is one the schema
  /// lists (tables whose keys are the user's are skipped).
  @Test func everyTOMLExampleInTheDocsUsesKnownKeys() throws {
    let docs = try FileManager.default.contentsOfDirectory(
      atPath: Self.root.appendingPathComponent("docs").path
    ).filter { $0.hasSuffix(".md") }.map { "docs/\($0)" }
    var unknown: [String] = []
    for page in ["README.md"] + docs.sorted() {
      let text = try String(
        contentsOf: Self.root.appendingPathComponent(page), encoding: .utf8)
      var inTOML = false
      var table: ConfigSchema.Table?
      for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
        if line.hasPrefix("```") {
          inTOML = line == "```toml"
          table = nil
          continue
        }
        guard inTOML else { continue }
        let code = line.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)[0]
          .trimmingCharacters(in: .whitespaces)
        if code.hasPrefix("[") {
          let name = code.trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
          table = ConfigSchema.table(name)
          if table == nil { unknown.append("\(page): [\(name)]: no such table") }
        } else if let table, table.freeKeys == nil, let equals = code.firstIndex(of: "="),
          !line.hasPrefix(" ")
        {
          let key = code[..<equals].trimmingCharacters(in: .whitespaces)
          if !table.keys.contains(where: { $0.name == key }) {
            unknown.append("\(page): \(table.header) \(key): no such key")
          }
        }
      }
    }
    #expect(unknown.isEmpty, "\(unknown.joined(separator: "\n"))")
  }
}
