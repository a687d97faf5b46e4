import Foundation
import PatchbayConfig
import PatchbayEncoding
import PatchbayFlight
import PatchbayHost
import Testing

@testable import PatchbayScript

/// A flight file read as a recording replays to the app it was written by: from its
/// checkpoint, its screens renumbered, through navigation and a swap.
@Suite struct FlightRecordingTests {
  @Test func aFlightFileReplaysToTheStatesItsAppReached() async throws {
    let app = try FlightRecorderTests.app(flightActions: 6)
    // Screens come and go, so the one the checkpoint holds is echo#3.
    for _ in 0..<2 {
      try app.navigate(.push(node: "echo"))
      try app.navigate(.pop)
    }
    try app.navigate(.push(node: "echo"))
    for step in 1...7 {
      try app.send("counter", "setStep(by: \(step))")
      try app.send("counter", "increment")
    }
    try app.send("echo#3", #"say(text: "hi")"#)
    try app.navigate(.pop)
    try app.navigate(.push(node: "echo"))  // echo#4
    try app.send("echo#4", #"say(text: "there")"#)
    try app.swap("counter", to: "CounterAlt")
    try app.send("counter", "increment")

    let recording = try Recording(flight: FlightLog(file: try #require(app.flightFile)))
    #expect(recording.stoppedBy == nil)
    let paths = recording.steps.compactMap { step -> String? in
      if case .action(let path, _, _) = step.step { return path }
      return nil
    }
    // Replayed, echo#3 is the first screen and echo#4 the second.
    #expect(Set(paths) == ["counter", "echo#1", "echo#2"], "\(paths)")
    let config = try AppConfig(
      parsing: FlightRecorderTests.config(flightActions: 6), file: "test.toml")
    let loader = config.loader(firstSearchPaths: [BuiltPlugins.directory])
    let replay = try AppRuntime(
      config: config, registry: try config.loadPlugins(with: loader), loader: loader,
      replaying: true)
    try await recording.replay(into: replay)
    #expect(try replay.state("counter") == app.state("counter"))
    #expect(try replay.state("echo") == app.state("echo"))
    #expect(try replay.state("counter")[field: "value"] == 35)  // 1 + … + 7, then + 7 as CounterAlt
  }

  /// `Recording(file:)`, and so `replay` and `devtools`, read a flight file by its first bytes.
  @Test func aFlightFileIsARecordingByItsFirstBytes() throws {
    let app = try FlightRecorderTests.app(flightActions: 100)
    try app.send("counter", "increment")
    let recording = try Recording(file: try #require(app.flightFile))
    #expect(recording.config == URL(fileURLWithPath: "test.toml").standardizedFileURL.path)
    #expect(
      recording.steps.last?.step == .action(path: "counter", text: "increment", source: .command))
    let damaged = temporaryFile("damaged.flight")
    defer { unlink(damaged) }
    try Data("PBFLIGHT and then nothing".utf8).write(to: URL(fileURLWithPath: damaged))
    #expect {
      try Recording(file: damaged)
    } throws: { error in
      "\(error)".contains("\(damaged)") && "\(error)".contains("not match the file")
    }
  }

  /// Written as a recording file, it reads back step for step, with what stopped it.
  @Test func writtenAsARecordingItReadsBackTheSame() throws {
    let app = try FlightRecorderTests.app(flightActions: 100)
    try app.navigate(.push(node: "echo"))
    try app.send("echo", #"say(text: "a \"quoted\" line")"#)
    // Refused, and not a value: left out, and the recording ends with why.
    try app.instance("counter").send([0xFF])
    let flight = try Recording(file: try #require(app.flightFile))
    let file = temporaryFile("written.jsonl")
    defer { unlink(file) }
    try flight.write(to: file)
    let written = try Recording(file: file)
    #expect(written.config == flight.config)
    #expect(written.steps.map(\.step) == flight.steps.map(\.step))
    #expect(written.stoppedBy == flight.stoppedBy)
    #expect(written.stoppedBy?.hasPrefix("dev.patchbay.counter: reduce failed:") == true)
  }

  @Test func whatDoesNotReadIsNamed() throws {
    func read(_ records: [FlightRecord]) -> String {
      var reader = FlightHistoryReader(file: "x.flight")
      do {
        for record in records { try reader.read(record) }
        return "read"
      } catch {
        return "\(error)"
      }
    }
    #expect(read([.action(site: 3, source: 0, bytes: [])]).contains("site 3, which no site record"))
    let site = FlightRecord.site(id: 0, path: "a", feature: "f", plugin: "p")
    let undecodable = FlightRecord.action(site: 0, source: 0, bytes: [0xFF])
    #expect(read([site, undecodable, .failed]) == "read")  // refused: it changed nothing
    #expect(
      read([site, undecodable, undecodable, .failed])
        .contains("an action of a whose 1 bytes do not decode"))
    #expect(read([.routes(stack: ["echo"], presented: nil, next: 2)]).contains("'echo'"))
    #expect(
      read([.navigation(name: "pop", nodes: ["x"], state: nil)]).contains("'pop' with 1 node"))
  }
}
