import Foundation
import Testing

/// The docs cannot drift from the code: every relative link and anchor in README.md and
/// docs/*.md resolves, and every `patchbay` command line they show names a subcommand and
/// flags that exist (read from the argument parser's own help).
@Suite struct DocsTests {
  /// README.md and every page under docs/, with their text.
  static func pages() throws -> [(path: String, text: String)] {
    let root = CheckTests.root
    let docs = try FileManager.default.contentsOfDirectory(atPath: "\(root)/docs")
      .filter { $0.hasSuffix(".md") }.sorted().map { "docs/\($0)" }
    return try (["README.md"] + docs).map {
      ($0, try String(contentsOfFile: "\(root)/\($0)", encoding: .utf8))
    }
  }

  /// GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens.
  static func anchor(_ heading: String) -> String {
    String(
      heading.lowercased().compactMap { character -> Character? in
        if character == " " { return "-" }
        if character.isLetter || character.isNumber || character == "-" || character == "_" {
          return character
        }
        return nil
      })
  }

  /// The anchors of a page's headings (outside code blocks).
  static func anchors(in text: String) -> Set<String> {
    var anchors = Set<String>()
    var inCode = false
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
      if line.hasPrefix("```") { inCode.toggle() }
      guard !inCode, line.hasPrefix("#") else { continue }
      anchors.insert(Self.anchor(String(line.drop { $0 == "#" }.drop { $0 == " " })))
    }
    return anchors
  }

  @Test func everyRelativeLinkAndAnchorResolves() throws {
    let root = URL(fileURLWithPath: CheckTests.root)
    let link = /\]\(([^)\s]+)\)/
    var broken: [String] = []
    for (path, text) in try Self.pages() {
      let folder = root.appendingPathComponent(path).deletingLastPathComponent()
      for match in text.matches(of: link) {
        let target = String(match.1)
        guard !target.contains("://"), !target.hasPrefix("mailto:") else { continue }
        let parts = target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
        let file =
          parts[0].isEmpty
          ? root.appendingPathComponent(path) : folder.appendingPathComponent(String(parts[0]))
        guard FileManager.default.fileExists(atPath: file.path) else {
          broken.append("\(path): \(target): no such file")
          continue
        }
        if parts.count == 2, file.pathExtension == "md" {
          let text = (try? String(contentsOf: file, encoding: .utf8)) ?? ""
          if !Self.anchors(in: text).contains(String(parts[1])) {
            broken.append("\(path): \(target): no heading with that anchor")
          }
        }
      }
    }
    #expect(broken.isEmpty, "\(broken.joined(separator: "\n"))")
  }

  /// `patchbay SUBCOMMAND … --flag` lines in the docs' code blocks.
  static func commandLines() throws -> [(page: String, words: [String])] {
    var lines: [(String, [String])] = []
    for (path, text) in try Self.pages() {
      var inCode = false
      for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
        if line.hasPrefix("```") {
          inCode.toggle()
          continue
        }
        guard inCode else { continue }
        // The command, up to a comment, a pipe or the next command.
        let command = line.split(separator: "#", maxSplits: 1).first.map(String.init) ?? ""
        for segment in command.split(whereSeparator: { "|;&".contains($0) }) {
          let words = segment.split(separator: " ").map(String.init)
          guard let at = words.firstIndex(where: { $0 == "patchbay" || $0.hasSuffix("/patchbay") })
          else { continue }
          lines.append((path, Array(words[(at + 1)...])))
        }
      }
    }
    return lines
  }

  @Test func everyCommandAndFlagTheDocsShowExists() async throws {
    let subcommands = HelpTextTests.subcommands(
      in: try await HelpTextTests.help([], columns: 200))
    var helps: [String: String] = [:]
    var wrong: [String] = []
    for (page, words) in try Self.commandLines() {
      guard let first = words.first, !first.hasPrefix("-") || first == "--version" else {
        continue
      }
      if first == "--version" || first == "--help" { continue }
      // Prose in a picture (`patchbay (PatchbayCLI): run · …`) is not a command line.
      guard first.allSatisfy({ $0.isLowercase || $0 == "-" }) else { continue }
      guard subcommands.contains(first) else {
        wrong.append("\(page): patchbay \(first): no such subcommand")
        continue
      }
      // The command's own words (`audio tone`), then its flags, checked against its help.
      var command = [first]
      while true {
        let key = command.joined(separator: " ")
        if helps[key] == nil { helps[key] = try await HelpTextTests.help(command, columns: 200) }
        let nested = HelpTextTests.subcommands(in: helps[key] ?? "")
        guard command.count < words.count, nested.contains(words[command.count]) else { break }
        command.append(words[command.count])
      }
      let help = helps[command.joined(separator: " ")] ?? ""
      for flag in words.dropFirst(command.count) where flag.hasPrefix("--") {
        let name = String(flag.prefix { $0 != "=" })
        if !help.contains(name) {
          wrong.append("\(page): patchbay \(command.joined(separator: " ")) \(name): no such flag")
        }
      }
    }
    #expect(wrong.isEmpty, "\(wrong.joined(separator: "\n"))")
  }

  /// docs/LAYOUT.md is the map a newcomer finds things by: every path its table names (each
  /// backquoted `Sources/…`, `Tests/…`, `Plugins/…` in the first column) exists, and every
  /// target folder under Sources/ is on it.
  @Test func theLayoutMapsEveryFolderThatExists() throws {
    let root = CheckTests.root
    let layout = try String(contentsOfFile: "\(root)/docs/LAYOUT.md", encoding: .utf8)
    let named = layout.split(separator: "\n").filter { $0.hasPrefix("| `") }.flatMap { row in
      let first = row.dropFirst(2).prefix { $0 != "|" }
      return first.matches(of: /`([^`]+)`/).map { String($0.1) }
    }
    #expect(named.count > 20)
    let missing = named.filter { path in
      let plain = path.replacingOccurrences(of: "<Target>", with: "PatchbayCLI")
      return !FileManager.default.fileExists(atPath: "\(root)/\(plain)")
    }
    #expect(missing.isEmpty, "docs/LAYOUT.md names paths that do not exist: \(missing)")
    let targets = try FileManager.default.contentsOfDirectory(atPath: "\(root)/Sources")
    let unmapped = targets.filter { target in
      !named.contains { $0 == "Sources/\(target)" || $0.hasPrefix("Sources/\(target)/") }
    }
    #expect(unmapped.isEmpty, "Sources/ folders docs/LAYOUT.md does not map: \(unmapped.sorted())")
  }

  /// The README's table of validator tests is `patchbay validate --list`, row for row.
  @Test func theValidateTableIsTheValidatorsList() async throws {
    let list = try await CLI.run("validate", "--list")
    #expect(list.exitCode == 0)
    let rows = list.stdout.split(separator: "\n").compactMap { line -> String? in
      guard let match = line.wholeMatch(of: /(\S+)\s+level (\d+)\s+(.*)/) else { return nil }
      return "| `\(match.1)` | \(match.2) | \(match.3) |"
    }
    let table = (["| test | level | checks |", "|---|---|---|"] + rows).joined(separator: "\n")
    let readme = try String(contentsOfFile: "\(CheckTests.root)/README.md", encoding: .utf8)
    let start = try #require(readme.range(of: "<!-- validate-tests -->\n"))
    let end = try #require(readme.range(of: "\n<!-- /validate-tests -->"))
    #expect(
      String(readme[start.upperBound..<end.lowerBound]) == table,
      "README.md's validate table differs from `patchbay validate --list`: paste this\n\(table)")
  }

  /// Facts the docs state that the code decides: the Swift version the manifests need, the
  /// version line, every bundled plugin, every subcommand in the architecture's picture.
  @Test func theDocsFactsAreTheCodes() async throws {
    let root = CheckTests.root
    func read(_ path: String) throws -> String {
      try String(contentsOfFile: "\(root)/\(path)", encoding: .utf8)
    }
    let manifest = try read("Package.swift")
    let tools = try #require(manifest.firstMatch(of: /swift-tools-version: (\d+\.\d+)/)).1
    for page in ["README.md", "docs/INSTALL.md"] {
      #expect(try read(page).contains("Swift \(tools) or later"), "\(page): not Swift \(tools)")
    }
    let version = try await CLI.run("--version")
    let line = version.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    #expect(try read("docs/INSTALL.md").contains("# \(line)"), "docs/INSTALL.md: not '\(line)'")

    let plugins = try FileManager.default.contentsOfDirectory(atPath: "\(root)/Plugins")
      .filter { $0 != "Fixtures" && !$0.hasPrefix(".") }
    let pluginsPage = try read("docs/PLUGINS.md")
    for plugin in plugins {
      #expect(pluginsPage.contains("| `Plugins/\(plugin)` |"), "docs/PLUGINS.md lacks \(plugin)")
    }

    let picture = try read("docs/ARCHITECTURE.md")
    let subcommands = HelpTextTests.subcommands(
      in: try await HelpTextTests.help([], columns: 200)
    ).filter { $0 != "help" }
    let lines = picture.split(separator: "\n").prefix { !$0.hasPrefix("     ▼") }
    let named = lines.filter { $0.contains("patchbay (PatchbayCLI)") || $0.hasPrefix("     │  ") }
      .joined(separator: " ")
    for subcommand in subcommands {
      #expect(named.contains(subcommand), "docs/ARCHITECTURE.md's picture lacks \(subcommand)")
    }
  }
}
