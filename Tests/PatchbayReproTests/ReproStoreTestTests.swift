import Foundation
import PatchbayScript
import Testing

@testable import PatchbayRepro

/// A shrunk run is a TestStore test when it is actions to one instance of the failing feature
/// and a crash or hang of its reduce; otherwise the reason is said.
@Suite struct ReproStoreTestTests {
  static let source = FeatureSource(
    file: "/p/Sources/Lock/Lock.swift", type: "Lock", module: "LockFeature", isPublic: false)

  /// An app of a lock and a counter.
  static func config() throws -> String {
    let file = FileManager.default.temporaryDirectory
      .appendingPathComponent("repro-store-\(UUID().uuidString).toml").path
    try """
    [app]
    name = "Two"
    root = "lock"

    [plugins]
    load = ["Lock", "Counter"]

    [limits]
    call-seconds = 4

    [[feature]]
    key = "lock"
    id = "dev.example.lock"

    [[feature]]
    key = "counter"
    id = "dev.example.counter"
    parent = "lock"
    """.write(toFile: file, atomically: true, encoding: .utf8)
    return file
  }

  static func text(
    _ steps: [RecordingLine.Step], kind: String = "SIGILL", call: String = "reduce"
  ) throws -> Result<String, ReproStoreTest.Unfit> {
    let config = try Self.config()
    defer { try? FileManager.default.removeItem(atPath: config) }
    let shrunk = Repro.Shrunk(
      failure: ReproFailure(kind: kind, feature: "dev.example.lock", call: call),
      report: "the report", kept: steps, simplified: [], runs: 9)
    let test = ReproStoreTest(shrunk, config: config, source: Self.source, callSeconds: nil)
    return Result { () throws(ReproStoreTest.Unfit) in try test.text(summary: "the summary") }
  }

  @Test func actionsFromAStartingStateAreSentToTheStore() throws {
    let text = try Self.text([
      .kept(path: "lock", state: "{progress: 2, position: -3}"),
      .action(path: "lock", text: "dial(4)", source: .command),
      .action(path: "lock", text: "turn(by: 1)", source: .midi),
    ]).get()
    #expect(
      text.contains(
        "@testable import LockFeature\nimport PatchbayPlugin\nimport PatchbayTesting\nimport Testing\n"
      ))
    #expect(
      text.contains(
        "let store = TestStore(initialState: Lock.State(progress: 2, position: -3)) { Lock() }"))
    #expect(text.contains("    await store.send(.dial(4))\n    await store.send(.turn(by: 1))\n"))
    #expect(text.contains("@Test func itDoesNotCrash() async"))
    #expect(!text.contains("asyncAfter"))
  }

  /// A hang is a reduce that takes longer than the app's limit: a watchdog ends the process.
  @Test func aHangWaitsTheConfigsCallSeconds() throws {
    let text = try Self.text(
      [.action(path: "lock", text: "dial(5)", source: .command)], kind: "hang"
    ).get()
    #expect(text.contains("TestStore(initialState: Lock.initialState) { Lock() }"))
    #expect(text.contains("import Foundation\n"))
    #expect(text.contains("asyncAfter(deadline: .now() + .seconds(4))"))
    #expect(text.contains(#"let said = "the 1 actions did not return within 4 s\n""#))
    #expect(text.contains("@Test func itsCallsReturn() async"))
  }

  @Test(arguments: [
    (
      [RecordingLine.Step.action(path: "lock", text: "tick", source: .effect)], "SIGILL",
      "reduce", "an effect sent 'tick', which the TestStore's own effects send again"
    ),
    (
      [.action(path: "lock", text: "dial(1)", source: .command), .swap(feature: "x", plugin: "y")],
      "SIGILL", "reduce", "'swap x y' needs the app, not one TestStore"
    ),
    (
      [.action(path: "lock/counter", text: "increment", source: .command)], "SIGILL", "reduce",
      "the actions go to lock/counter, which the config"
    ),
    (
      [.action(path: "lock", text: "dial(9)", source: .command)], "nan", "process",
      "is not a crash or a hang of the reduce"
    ),
    (
      [.action(path: "lock", text: "dial(", source: .command)], "SIGILL", "reduce", "'dial(' is not"
    ),
  ])
  func stepsATestStoreCannotTakeSayWhy(
    steps: [RecordingLine.Step], kind: String, call: String, reason: String
  ) throws {
    let result = try Self.text(steps, kind: kind, call: call)
    guard case .failure(let unfit) = result else {
      Issue.record("a TestStore test was written: \(result)")
      return
    }
    #expect(unfit.description.contains(reason), "\(unfit)")
  }
}
