import Foundation
import Testing

/// `--help` reads as paragraphs at any terminal width: argument-parser wraps the discussion
/// text, so the source must not wrap it by hand first; example lines fit 80 columns as written.
@Suite struct HelpTextTests {
  /// Every command's words after `patchbay`, found from the SUBCOMMANDS lists of the help.
  static func commands() async throws -> [[String]] {
    var found: [[String]] = [[]]
    var index = 0
    while index < found.count {
      let help = try await Self.help(found[index], columns: 200)
      for name in Self.subcommands(in: help) where name != "help" {
        found.append(found[index] + [name])
      }
      index += 1
    }
    return found
  }

  static func help(_ command: [String], columns: Int) async throws -> String {
    let result = try await CLI.run(
      arguments: command + ["--help"], environment: ["COLUMNS": "\(columns)"])
    #expect(result.exitCode == 0, "\(command): \(result.stderr)")
    return result.stdout
  }

  /// The names under `SUBCOMMANDS:`.
  static func subcommands(in help: String) -> [String] {
    let lines = help.split(separator: "\n", omittingEmptySubsequences: false)
    guard let start = lines.firstIndex(of: "SUBCOMMANDS:") else { return [] }
    return lines[(start + 1)...].prefix { !$0.isEmpty }.compactMap { line in
      // "  run                     Run a composed app…": a name at two spaces; a wrapped
      // abstract is indented further.
      guard line.hasPrefix("  "), !line.hasPrefix("   ") else { return nil }
      return line.split(separator: " ").first.map(String.init)
    }
  }

  /// The discussion: the lines after the overview's paragraph, up to `USAGE:`.
  static func discussion(in help: String) -> [Substring] {
    let lines = help.split(separator: "\n", omittingEmptySubsequences: false)
    guard let usage = lines.firstIndex(where: { $0.hasPrefix("USAGE:") }),
      let gap = lines.firstIndex(of: "")
    else { return [] }
    return gap < usage ? Array(lines[(gap + 1)..<usage]) : []
  }

  /// Lines of a paragraph whose next line's first word would have fitted on them.
  /// argument-parser breaks a line at the last space that fits the width, so a line and the
  /// space after it take at most `columns`.
  static func raggedLines(_ lines: [Substring], columns: Int) -> [String] {
    var ragged: [String] = []
    for (line, next) in zip(lines, lines.dropFirst()) {
      guard !line.isEmpty, !next.isEmpty, !line.hasPrefix(" "), !next.hasPrefix(" ") else {
        continue
      }
      let word = next.split(separator: " ").first ?? ""
      if line.count + 1 + word.count + 1 <= columns { ragged.append("\(line) ⏎ \(word)…") }
    }
    return ragged
  }

  @Test func theCommandListIsFound() async throws {
    let commands = try await Self.commands().map { $0.joined(separator: " ") }
    #expect(commands.contains("run"))
    #expect(commands.contains("midi monitor"))
    #expect(commands.contains("audio tone"))
  }

  @Test(arguments: [60, 80, 132, 200])
  func paragraphsAreWrappedOnlyByTheTerminalWidth(columns: Int) async throws {
    for command in try await Self.commands() {
      let lines = Self.discussion(in: try await Self.help(command, columns: columns))
      let ragged = Self.raggedLines(lines, columns: columns)
      #expect(ragged.isEmpty, "patchbay \(command.joined(separator: " ")) --help at \(columns)")
    }
  }

  @Test func exampleLinesFitEightyColumns() async throws {
    for command in try await Self.commands() {
      let lines = Self.discussion(in: try await Self.help(command, columns: 80))
      let long = lines.filter { $0.count > 80 }
      #expect(long.isEmpty, "patchbay \(command.joined(separator: " ")) --help: \(long)")
    }
  }

  @Test func aRaggedParagraphIsSeen() {
    // What the hand-wrapped text looked like once argument-parser wrapped it at 80 columns.
    let lines: [Substring] = [
      "Plugins are shared libraries (lib<Name>.so) exporting features through the",
      "Patchbay",
      "C ABI (patchbay.h).",
    ]
    #expect(Self.raggedLines(lines, columns: 80) == ["Patchbay ⏎ C…"])
    #expect(Self.raggedLines(["  an example", "  another"], columns: 80).isEmpty)
  }

  @Test func versionNamesTheHostAndItsABI() async throws {
    let result = try await CLI.run("--version")
    #expect(result.exitCode == 0)
    let line = result.stdout.trimmingCharacters(in: .newlines)
    #expect(line.wholeMatch(of: /patchbay \d+\.\d+\.\d+ \(plugin ABI \d+\.\d+\)/) != nil, "\(line)")
    // The ABI it names is the one inspect reports for a plugin built against this checkout.
    let inspect = try await CLI.run("inspect", "Counter")
    let abi = line.firstMatch(of: /ABI (\d+\.\d+)/).map { String($0.1) } ?? "?"
    #expect(inspect.stdout.contains("ABI:  \(abi)"), "\(inspect.stdout)")
  }
}
