import Foundation
import PatchbayConfig
import PatchbayEncoding
import PatchbayHost
import PatchbayScript
import Synchronization
import Testing

/// Swapping a feature's implementation while the app runs (docs/ARCHITECTURE.md, "Swapping a
/// feature"): state kept, nothing lost, and on any failure the old implementation goes on as
/// before.
@Suite struct SwapTests {
  @Test func stateIsKeptAcrossASwapAndBack() throws {
    let app = try makeDemoApp()
    try app.send("counter", "setStep(by: 3)")
    try app.send("counter", "increment")

    let there = try app.swap("counter", to: "CounterAlt")
    #expect(there.featureID == "dev.patchbay.counter")
    #expect((there.fromSchema, there.toSchema) == (1, 2))
    #expect(there.instances == ["counter"])
    #expect(
      try app.state("counter")
        == .record(fields: ("value", 3), ("stride", 3), ("history", .list([])), ("waiting", 0)))
    try app.send("counter", "increment")  // CounterAlt's code now
    #expect(try app.renderCurrent() == "Value 6 (step 3)\nWas: 3")

    let back = try app.swap("dev.patchbay.counter", to: "Counter")
    #expect((back.fromSchema, back.toSchema) == (2, 1))
    #expect(try app.state("counter") == .record(fields: ("count", 6), ("step", 3), ("pending", 0)))
    #expect(try app.renderCurrent() == "Count: 6\nStep:  3")
  }

  @Test func swappingBackToAnUnchangedFileReusesItsLoad() throws {
    let app = try makeDemoApp()
    let first = try app.swap("counter", to: "CounterAlt")
    let back = try app.swap("counter", to: "Counter")
    let again = try app.swap("counter", to: "CounterAlt")
    #expect(again.generation == first.generation)
    #expect(back.to.hasSuffix("/libCounter.so"))
  }

  @Test func everyInstanceSwapsAndNewInstancesGetTheNewCode() throws {
    let app = try makeFullDemoApp()
    try app.send("tallies#a", "increment")
    let report = try app.swap("counter", to: "CounterAlt")
    #expect(report.instances.sorted() == ["home/tallies#a", "home/tallies#b"])
    #expect(try app.state("tallies#a")[field: "value"] == 1)
    try app.navigate(.push(node: "counter"))
    #expect(try app.state("counter")[field: "value"] == 0)  // created by CounterAlt
    try app.add(to: "home/tallies", id: "c")
    #expect(try app.instance("tallies#c").feature.schemaVersion == 2)
  }

  @Test func theCPluginSwapsToo() throws {
    let app = try makeDemoApp()
    try app.navigate(.push(node: "echo"))
    try app.send("echo", #"say(text: "before")"#)
    // A rebuilt Echo: another file with the same feature.
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let rebuilt = folder.appendingPathComponent("libEcho.so").path
    try BuiltPlugins.copy("Echo", to: rebuilt)
    let report = try app.swap("echo", to: rebuilt)
    #expect(report.to == rebuilt)
    #expect(report.instances == ["echo#1"])
    try app.send("echo", #"say(text: "after")"#)
    #expect(try app.state("echo") == .record(fields: ("message", "after"), ("count", 2)))
  }

  @Test func swapsAreRecordedAndReplayed() async throws {
    let recording = FileManager.default.temporaryDirectory.appendingPathComponent(
      "\(UUID().uuidString).jsonl"
    ).path
    let app = try makeDemoApp()
    let recorder = try RunRecorder(file: recording, config: app.config.file)
    app.onChange { recorder.record($0) }
    try app.send("counter", "increment")
    try app.swap("counter", to: "CounterAlt")
    try app.send("counter", "increment")
    recorder.finish(stateHash: try app.stateHash())
    let lines = try String(contentsOfFile: recording, encoding: .utf8)
    #expect(lines.contains(#""feature":"dev.patchbay.counter""#))
    #expect(lines.contains(#""source":"swap""#))

    let read = try Recording(file: recording)
    let config = try AppConfig(contentsOf: read.config)
    let loader = config.loader(firstSearchPaths: [BuiltPlugins.directory])
    let replay = try AppRuntime(
      config: config, registry: try config.loadPlugins(with: loader), loader: loader,
      replaying: true)
    try await read.replay(into: replay)
    #expect(try replay.stateHash() == read.stateHash)
    #expect(try replay.state("counter")[field: "value"] == 2)
  }
}

/// Every way a swap can be refused: one clear line, and the old implementation keeps running
/// with its state and its effects.
@Suite struct SwapRefusalTests {
  /// Runs `swap` on an app whose counter has state and a running effect; returns the error.
  func refusal(_ swap: (AppRuntime) throws -> Void) async throws -> String {
    let app = try makeDemoApp()
    try app.send("counter", "setStep(by: 4)")
    try app.send("counter", "incrementLater(ms: 86400000)")  // a day: still running when we look
    let before = try app.stateValue()
    let message = errorMessage { try swap(app) }
    #expect(try app.stateValue() == before)
    let counter = try app.instance("counter")
    #expect(counter.feature.schemaVersion == 1)
    #expect(counter.isQuiet == false)  // the old effect was not cancelled
    try app.send("counter", "increment")  // and the old code still reduces
    #expect(try app.state("counter")[field: "count"] == 4)
    counter.cancelEffects()
    return message
  }

  @Test func aPluginWithoutTheFeature() async throws {
    let message = try await refusal { try $0.swap("counter", to: "Echo") }
    #expect(message.hasPrefix("swap counter: "))
    #expect(
      message.contains(
        "libEcho.so has no feature 'dev.patchbay.counter' (it has: dev.patchbay.echo)."))
    #expect(message.hasSuffix("The old implementation keeps running."))
  }

  @Test func schemasDifferAndThereIsNoMigrate() async throws {
    let fixture = try BuiltPlugins.fixture("counterschema3")
    let message = try await refusal { try $0.swap("counter", to: fixture) }
    #expect(
      message.contains(
        "refused: dev.patchbay.counter: migrate failed: the feature has no migrate function, so it cannot restore state of schema 1 into schema 3"
      ))
    #expect(message.hasSuffix("The old implementation keeps running, with its state."))
  }

  @Test func migrateFails() async throws {
    let fixture = try BuiltPlugins.fixture("countermigratefails")
    let message = try await refusal { try $0.swap("counter", to: fixture) }
    #expect(
      message.contains(
        "refused: dev.patchbay.counter: migrate failed: the fixture cannot migrate any state"))
  }

  @Test func createFailsOnTheRestoredState() async throws {
    let fixture = try BuiltPlugins.fixture("countercreatefails")
    let message = try await refusal { try $0.swap("counter", to: fixture) }
    #expect(
      message.contains(
        "refused: dev.patchbay.counter: create failed: the fixture refuses every restored state"))
  }

  @Test func notAPluginAndUnknownNames() async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let text = folder.appendingPathComponent("libNotes.so").path
    try "just text".write(toFile: text, atomically: true, encoding: .utf8)
    #expect(
      try await refusal { try $0.swap("counter", to: text) }.contains(
        "not a shared object (starts with 6a 75 73 74, not an ELF header)"))
    #expect(
      try await refusal { try $0.swap("countr", to: "CounterAlt") }.hasPrefix(
        "swap: no feature 'countr'. Did you mean 'counter'?"))
    #expect(
      try await refusal { try $0.swap("counter", to: "CounterAlternative") }.contains(
        "no libCounterAlternative.so in"))
  }
}
