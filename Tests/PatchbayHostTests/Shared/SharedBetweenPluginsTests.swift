import Foundation
import PatchbayConfig
import PatchbayEncoding
import PatchbayHost
import Synchronization
import Testing

/// TCA's `@Shared(.inMemory("tally"))` between two plugins (docs/SHARED.md, "@Shared between
/// plugins"): two copies of the SharedTally fixture (Plugins/Fixtures/Numbered/SharedTally.swift)
/// hold one value through the host, in this process and each in a process of its own.
@Suite struct SharedBetweenPluginsTests {
  /// An app whose root `left` and child `right` are two plugins holding "tally".
  struct TwoHolders {
    let app: AppRuntime
    let folder: URL
    let left: String

    /// `kept`: the left instance's state is kept in the folder across runs (`persist`).
    init(isolated: Bool, in folder: URL? = nil, kept: Bool = false) throws {
      self.folder =
        folder
        ?? FileManager.default.temporaryDirectory
        .appendingPathComponent("patchbay-shared-\(UUID().uuidString)")
      self.left = try Self.copy("SharedLeft", in: self.folder, folder: "a")
      let right = try Self.copy("SharedRight", in: self.folder, folder: "a")
      var config = try AppConfig(
        parsing: """
          [app]
          root = "left"
          [plugins]
          load = ["\(self.left)", "\(right)"]
          isolate = [\(isolated ? "\"all\"" : "")]
          [[feature]]
          key = "left"
          id = "dev.patchbay.fixture.sharedleft"
          persist = \(kept)
          [[feature]]
          key = "right"
          id = "dev.patchbay.fixture.sharedright"
          parent = "left"
          kind = "child"
          """, file: "shared.toml")
      config.stateFolder = self.folder.appendingPathComponent("kept")
      let loader = config.loader(firstSearchPaths: [BuiltPlugins.directory])
      self.app = try AppRuntime(
        config: config, registry: try config.loadPlugins(with: loader), loader: loader)
    }

    /// A copy of the fixture as `lib<name>.so` in `folder`.
    static func copy(_ name: String, in root: URL, folder: String) throws -> String {
      let path = root.appendingPathComponent(folder).appendingPathComponent("lib\(name).so").path
      try FileManager.default.createDirectory(
        atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
      if !FileManager.default.fileExists(atPath: path) {
        try BuiltPlugins.copy("TestFixtureNumbered", to: path)
      }
      return path
    }

    func tally(_ path: String) throws -> WireValue? {
      try self.app.state(path)[field: "tally"]
    }

    func removeFiles() {
      try? FileManager.default.removeItem(at: self.folder)
    }
  }

  @Test(arguments: [false, true])
  func aChangeInOnePluginIsTheOthersAfterTheAction(isolated: Bool) throws {
    let holders = try TwoHolders(isolated: isolated)
    defer { holders.removeFiles() }
    let sources = Mutex<[String]>([])
    holders.app.onChange { change in
      if case .action(let path, let text, let source, _) = change {
        sources.withLock { $0.append("\(source.rawValue) \(path) \(text)") }
      }
    }
    let held = WireValue.record(fields: ("inMemory", "tally"), ("value", 0))
    #expect(try holders.tally("left") == held)
    #expect(try holders.tally("left/right") == held)

    try holders.app.send("left", "increment")
    #expect(try holders.tally("left/right") == .record(fields: ("inMemory", "tally"), ("value", 1)))
    try holders.app.send("left/right", "set(10)")
    #expect(try holders.tally("left") == .record(fields: ("inMemory", "tally"), ("value", 10)))
    // The value it has already: nobody is told.
    try holders.app.send("left", "set(10)")

    // Each change reached the other holder as an action of its own, right after the writer's.
    #expect(
      sources.withLock { $0 } == [
        "command left increment",
        #"shared left/right _shared(name: "tally", value: 1)"#,
        "command left/right set(10)",
        #"shared left _shared(name: "tally", value: 10)"#,
        "command left set(10)",
      ])
    #expect(holders.app.sharedState()["tally"]?.owner == "written by left/right")
    #expect(try holders.app.state("left/right")[field: "changes"] == .int(1))
  }

  @Test(arguments: [false, true])
  func aChangeMadeInAnEffectReachesTheOthers(isolated: Bool) async throws {
    let holders = try TwoHolders(isolated: isolated)
    defer { holders.removeFiles() }
    try holders.app.send("left", "incrementLater")
    #expect(await holders.app.settle(timeout: .seconds(300)))
    #expect(try holders.tally("left/right") == .record(fields: ("inMemory", "tally"), ("value", 1)))
    #expect(try holders.tally("left") == .record(fields: ("inMemory", "tally"), ("value", 1)))
  }

  /// A swap keeps the value, and the new build holds it as the old one did.
  @Test func aSwapKeepsTheValueAndTheHolding() throws {
    let holders = try TwoHolders(isolated: false)
    defer { holders.removeFiles() }
    try holders.app.send("left", "set(7)")
    let build = try TwoHolders.copy("SharedLeft", in: holders.folder, folder: "b")
    let told = Mutex<[String]>([])
    holders.app.onChange { change in
      if case .action(let path, let text, .shared, _) = change {
        told.withLock { $0.append("\(path) \(text)") }
      }
    }
    try holders.app.swap("left", to: build)
    // The state read back holds 7 itself: nobody had to be told it again.
    #expect(told.withLock { $0 } == [])
    #expect(try holders.tally("left") == .record(fields: ("inMemory", "tally"), ("value", 7)))
    try holders.app.send("left/right", "increment")
    #expect(try holders.tally("left") == .record(fields: ("inMemory", "tally"), ("value", 8)))
    try holders.app.send("left", "increment")
    #expect(try holders.tally("left/right") == .record(fields: ("inMemory", "tally"), ("value", 9)))
  }

  /// A kept state holds its value when the app starts again: the value read back is the
  /// app's, and the other holder, created after it, gets it.
  @Test func aKeptStateBringsItsValueBackAcrossARestart() throws {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("patchbay-shared-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    do {
      let first = try TwoHolders(isolated: false, in: folder, kept: true)
      try first.app.send("left/right", "set(12)")
      first.app.flushKeptState()
    }
    let again = try TwoHolders(isolated: false, in: folder, kept: true)
    #expect(try again.tally("left") == .record(fields: ("inMemory", "tally"), ("value", 12)))
    #expect(try again.tally("left/right") == .record(fields: ("inMemory", "tally"), ("value", 12)))
  }

  /// A held value's action is text like any other: sent by hand, it sets the value.
  @Test func theHeldActionCanBeSentAsText() throws {
    let holders = try TwoHolders(isolated: false)
    defer { holders.removeFiles() }
    try holders.app.send("left", #"_shared(name: "tally", value: 4)"#)
    #expect(try holders.tally("left") == .record(fields: ("inMemory", "tally"), ("value", 4)))
    // Received, not written: the other holder still has the app's value.
    #expect(try holders.tally("left/right") == .record(fields: ("inMemory", "tally"), ("value", 0)))
    try holders.app.send("left", #"_sharedWrite(name: "tally", value: 5)"#)
    #expect(try holders.tally("left/right") == .record(fields: ("inMemory", "tally"), ("value", 5)))
  }

  /// A feature that holds no shared value (its storage is made only when its code first uses
  /// `.inMemory`) refuses a held value's action with one line, and its state stays.
  @Test func aFeatureThatHoldsNothingSaysSo() throws {
    let counter = try FeatureHandle(feature: try BuiltPlugins.loader.load("Counter").features[0])
    try counter.send(text: "increment")
    let before = try counter.stateJSON()
    try counter.send(text: #"_shared(name: "tally", value: 1)"#)
    #expect(
      counter.failures.last?.contains(
        "'tally' is not a shared value this instance holds (it holds none)") == true)
    #expect(try counter.stateJSON() == before)
    try counter.send(text: "increment")
    #expect(try counter.stateJSON().contains(#""count":2"#))
  }

  /// A held value's action that names a value it does not hold, or a value of another type,
  /// fails with one line, and the value stays.
  @Test(arguments: [
    (
      #"_shared(name: "score", value: 1)"#,
      "'score' is not a shared value this instance holds (it holds 'tally')"
    ),
    (
      #"_shared(name: "tally", value: "seven")"#,
      #"the shared value 'tally' ("seven") does not decode as this build's type"#
    ),
    (
      #"_sharedWrite(name: "tally", value: 1.5)"#,
      "the shared value 'tally' (1.5) does not decode as this build's type: expected an int, "
        + "found a double. Give every holder of 'tally' the same type"
    ),
  ])
  func aBadHeldValueIsRefusedWithALine(text: String, reason: String) throws {
    let holders = try TwoHolders(isolated: false)
    defer { holders.removeFiles() }
    try holders.app.send("left", "set(3)")
    let before = try holders.app.state("left")
    #expect {
      try holders.app.send("left", text)
    } throws: { error in
      "\(error)".contains("dev.patchbay.fixture.sharedleft: \(reason)")
    }
    #expect(try holders.app.state("left") == before)
    #expect(try holders.tally("left/right") == .record(fields: ("inMemory", "tally"), ("value", 3)))
  }
}
