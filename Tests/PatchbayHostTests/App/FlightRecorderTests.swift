import Foundation
import PatchbayFlight
import Testing

@testable import PatchbayHost

/// Every app keeps its last actions in a flight file: each before it is reduced, from a
/// checkpoint that rebuilds the app; an app that goes removes it.
@Suite struct FlightRecorderTests {
  /// A counter with an echo screen, keeping `flightActions`.
  static func config(flightActions: Int) -> String {
    """
    [app]
    name = "Flight"
    root = "counter"
    [plugins]
    load = ["Counter", "Echo"]
    [limits]
    flight-actions = \(flightActions)
    [[feature]]
    key = "counter"
    id = "dev.patchbay.counter"
    [[feature]]
    key = "echo"
    id = "dev.patchbay.echo"
    parent = "counter"
    kind = "stack"
    """
  }

  static func app(flightActions: Int) throws -> AppRuntime {
    try makeApp(toml: Self.config(flightActions: flightActions))
  }

  static func actions(_ history: [FlightRecord]) -> [[UInt8]] {
    history.compactMap { record in
      if case .action(_, _, let bytes) = record { return bytes }
      return nil
    }
  }

  @Test func eachActionIsInTheFileFromTheAppsFirstCheckpoint() throws {
    let app = try Self.app(flightActions: 100)
    let file = try #require(app.flightFile)
    #expect(file.hasPrefix(FlightRecorder.folder + "/Flight-\(getpid())-"))
    let counter = try app.instance("counter")
    try app.send("counter", "setStep(by: 3)")
    try app.send("counter", "increment")
    let log = try FlightLog(file: file)
    #expect(log.config == URL(fileURLWithPath: "test.toml").standardizedFileURL.path)
    #expect(log.history.first == .checkpoint(actions: 0))
    #expect(log.history.contains(.routes(stack: [], presented: nil, next: 1)))
    #expect(log.history.contains { if case .kept("counter", _) = $0 { true } else { false } })
    #expect(
      Self.actions(log.history) == [
        try counter.parseAction("setStep(by: 3)"), try counter.parseAction("increment"),
      ])
  }

  /// Past its share of actions the recorder checkpoints: the screens, the swaps and the
  /// states as they are then, so the history starts there.
  @Test func aCheckpointHoldsTheScreensSwapsAndStates() throws {
    let app = try Self.app(flightActions: 4)
    let file = try #require(app.flightFile)
    try app.navigate(.push(node: "echo"))
    try app.swap("counter", to: "CounterAlt")
    for _ in 0..<131 { try app.send("counter", "increment") }
    let history = try FlightLog(file: file).history
    // A checkpoint of 4 records (the swap, the routes, two states) makes a segment hold 64
    // actions (16 a record, more than half the recorder's 4): checkpoints at 0, 64 and 128;
    // the older segment kept began at 64.
    #expect(FlightWriter.actionsPerCheckpointRecord == 16)
    #expect(history.first == .checkpoint(actions: 64))
    let checkpoint = history.prefix { $0 != .checkpointEnd }
    #expect(
      checkpoint.contains(
        .swap(feature: "dev.patchbay.counter", plugin: BuiltPlugins.directory + "/libCounterAlt.so")
      ), "\(checkpoint)")
    #expect(checkpoint.contains(.routes(stack: ["echo#1"], presented: nil, next: 2)))
    #expect(checkpoint.contains { if case .kept("echo#1", _) = $0 { true } else { false } })
    #expect(checkpoint.count == 5)  // the checkpoint's own record, and its 4
    #expect(Self.actions(history).count == 67)
  }

  @Test func aRefusedActionIsMarkedFailedWithWhy() async throws {
    let app = try Self.app(flightActions: 100)
    try app.send("counter", "increment")  // the first checkpoint is taken before it
    try app.navigate(.push(node: "echo"))
    try app.instance("counter").send([0xFF, 0x00])  // bytes that do not decode
    _ = await app.settle()
    let history = try FlightLog(file: try #require(app.flightFile)).history
    #expect(
      Array(history.suffix(3).dropLast()) == [
        .action(site: 0, source: 0, bytes: [0xFF, 0]), .failed,
      ])
    guard case .report(let why) = history.last else {
      Issue.record("no report last: \(history)")
      return
    }
    #expect(why.hasPrefix("dev.patchbay.counter: reduce failed:"), "\(why)")
    // The navigation step came between the actions.
    let push = history.firstIndex(of: .navigation(name: "push", nodes: ["echo"], state: nil))
    #expect(push == history.count - 4)
  }

  @Test func anAppThatGoesRemovesItsFile() throws {
    var app: AppRuntime? = try Self.app(flightActions: 100)
    let file = try #require(app?.flightFile)
    try app?.send("counter", "increment")
    #expect(FileManager.default.fileExists(atPath: file))
    app = nil
    #expect(!FileManager.default.fileExists(atPath: file))
  }

  @Test func noneWithFlightActionsZero() throws {
    #expect(try Self.app(flightActions: 0).flightFile == nil)
  }
}
