import Foundation
import Testing

/// `make demo`'s script against the demo app, and its replay.
@Suite struct DemoTests {
  static let config = "\(CheckTests.root)/host-config/app.toml"
  static let script = "\(CheckTests.root)/host-config/demo.script"

  @Test func theDemoScriptPasses() async throws {
    let result = try await CLI.run("run", Self.config, "--script", Self.script, "--print-changes")
    #expect(result.exitCode == 0, "\(result.stderr)")
    #expect(result.stdout.contains("[effect] practice#3/quiz ← delegate("))
    #expect(
      result.stdout.contains("[navigation] push(node: \"results\") → stack [practice#3, results#4]")
    )
    #expect(result.stdout.contains("You scored 2 of 3."))
    #expect(
      result.stdout.contains("[collection] home/tallies + c\n[command] home/tallies#c ← increment"))
    #expect(
      result.stdout.contains(#"[command] home ← tallies(element(id: "c", action: increment))"#))
  }

  @Test func theDemoReplaysToTheSameState() async throws {
    let recording = FileManager.default.temporaryDirectory.appendingPathComponent(
      "\(UUID().uuidString).jsonl"
    ).path
    let run = try await CLI.run("run", Self.config, "--script", Self.script, "--record", recording)
    #expect(run.exitCode == 0)
    let lines = try String(contentsOfFile: recording, encoding: .utf8).split(separator: "\n")
    #expect(
      lines.contains {
        $0.contains(#""add":"c""#) && $0.contains(#""state":"{count: 10, step: 1, pending: 0}""#)
      })
    #expect(lines.contains { $0.contains(#""remove":"a""#) })
    #expect(
      lines.contains {
        $0.contains(#""node":"results""#) && $0.contains(#""state":"{score: 2, outOf: 3}""#)
      })
    let replay = try await CLI.run("replay", recording)
    #expect(replay.exitCode == 0, "\(replay.stderr)")
    #expect(replay.stdout.split(separator: "\n").last == run.stdout.split(separator: "\n").last)
  }
}
