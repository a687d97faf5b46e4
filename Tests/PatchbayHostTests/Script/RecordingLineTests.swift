import Foundation
import Testing

@testable import PatchbayHost
@testable import PatchbayScript

@Suite struct RecordingLineTests {
  static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("PatchbayCLITests/Fixtures/counter-echo-2026-11.jsonl").path

  static func encode(_ line: RecordingLine) throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return String(decoding: try encoder.encode(line), as: UTF8.self)
  }

  /// The format stays: every line of a kept recording reads as a case and writes back the
  /// same bytes.
  @Test func aKeptRecordingReadsAndWritesBackByteForByte() throws {
    let text = try String(contentsOfFile: Self.fixture, encoding: .utf8)
    let lines = text.split(separator: "\n").map(String.init)
    let decoded = try lines.map {
      try JSONDecoder().decode(RecordingLine.self, from: Data($0.utf8))
    }
    #expect(decoded.first == .header(config: "../../../host-config/counter-echo.toml"))
    #expect(
      decoded[4]
        == .step(seq: 4, .action(path: "counter", text: "delayedIncrement", source: .effect)))
    #expect(decoded[5] == .step(seq: 5, .navigation(.push(node: "echo"), state: nil)))
    #expect(
      decoded[8] == .step(seq: 8, .swap(feature: "dev.patchbay.counter", plugin: "CounterAlt")))
    #expect(decoded.last == .end(stateHash: "be697d9c18491519"))
    #expect(try decoded.map(Self.encode) == lines)
  }

  @Test func everyStepRoundTrips() throws {
    let lines: [RecordingLine] = [
      .step(seq: 1, .navigation(.deepLink(nodes: ["practice", "results"]), state: nil)),
      .step(seq: 2, .navigation(.present(node: "settings"), state: "{volume: 3}")),
      .step(seq: 3, .navigation(.popToRoot, state: nil)),
      .step(seq: 4, .collection(path: "home/tallies", id: "c", added: true, state: "{count: 2}")),
      .step(seq: 5, .collection(path: "home/tallies", id: "c", added: false, state: nil)),
      .report("patchbay: a plugin call did not return within 5 s: in its \"reduce\"\n"),
    ]
    for line in lines {
      let json = try Self.encode(line)
      #expect(
        try JSONDecoder().decode(RecordingLine.self, from: Data(json.utf8)) == line, "\(json)")
    }
    #expect(
      try Self.encode(lines[3])
        == #"{"add":"c","path":"home/tallies","seq":4,"source":"collection","state":"{count: 2}"}"#)
  }

  @Test(arguments: [
    (#"{"seq":1,"source":"command","path":"counter"}"#, "an action line needs 'action'."),
    (#"{"seq":1,"source":"navigation","navigation":"push"}"#, "a push line needs 'node'."),
    (#"{"seq":1,"source":"navigation","navigation":"jump"}"#, "unknown navigation 'jump'"),
    (
      #"{"seq":1,"source":"collection","path":"t","add":"a","remove":"b"}"#,
      "one of 'add' or 'remove'"
    ),
    (#"{"seq":1,"source":"teleport"}"#, "unknown source 'teleport'"),
    (#"{"source":"command","path":"counter","action":"increment"}"#, "a step line needs 'seq'."),
    (#"{"end":true}"#, "the end line needs 'stateHash'."),
    (#"{"report":5}"#, "a report line's 'report' is the report's text."),
  ])
  func aBadLineSaysWhichFieldAndWhere(line: String, problem: String) throws {
    let file = FileManager.default.temporaryDirectory
      .appendingPathComponent("\(UUID().uuidString).jsonl").path
    defer { try? FileManager.default.removeItem(atPath: file) }
    try (#"{"config":"app.toml","format":"patchbay-record/1"}"# + "\n" + line + "\n")
      .write(toFile: file, atomically: true, encoding: .utf8)
    let error = try #require(throws: AppError.self) { try Recording(file: file) }
    guard case .recording(file, 2, let said) = error.reason else {
      Issue.record("expected a recording error at line 2, got \(error)")
      return
    }
    #expect(said.contains(problem), "\(said)")
  }

  @Test func aNewerFormatIsNamed() throws {
    let file = FileManager.default.temporaryDirectory
      .appendingPathComponent("\(UUID().uuidString).jsonl").path
    defer { try? FileManager.default.removeItem(atPath: file) }
    try #"{"config":"app.toml","format":"patchbay-record/2"}"#
      .write(toFile: file, atomically: true, encoding: .utf8)
    let error = try #require(throws: AppError.self) { try Recording(file: file) }
    #expect(
      error.reason
        == .recording(
          file: file, line: 1,
          problem:
            "format 'patchbay-record/2' is not 'patchbay-record/1'; this patchbay cannot replay it."
        ))
  }
}
