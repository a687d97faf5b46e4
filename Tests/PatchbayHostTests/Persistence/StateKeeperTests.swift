import Foundation
import PatchbayConfig
import PatchbayEncoding
import PatchbayLoader
import Testing

@testable import PatchbayHost
@testable import PatchbayPersistence

/// `[[feature]] persist = true`: an instance's state kept across runs.
@Suite struct StateKeeperTests {
  /// An app of `plugin` implementing `dev.patchbay.counter` at `counter`, kept, its state in
  /// `folder`; and its log lines.
  func app(_ plugin: String = "Counter", folder: URL) throws -> (AppRuntime, LogLines) {
    var config = try AppConfig(
      parsing: AppConfig.oneFeature(
        "dev.patchbay.counter", of: plugin, key: "counter", app: ["name = \"Kept\""],
        feature: ["persist = true"]),
      file: "kept.toml")
    config.stateFolder = folder
    let logs = LogLines()
    let loader = config.loader(firstSearchPaths: [BuiltPlugins.directory])
    let app = try AppRuntime(
      config: config, registry: try config.loadPlugins(with: loader), loader: loader)
    app.onLog { _, _, line in logs.append(line) }
    return (app, logs)
  }

  /// Runs the app once: sends `actions` to the counter, and ends with its state on disk.
  func run(_ actions: [String], keptIn folder: URL) throws {
    let (app, _) = try self.app(folder: folder)
    for action in actions { try app.send("counter", action) }
    app.flushKeptState()
  }

  func temporaryFolder() -> URL {
    FileManager.default.temporaryDirectory.appendingPathComponent("kept-\(UUID().uuidString)")
  }

  @Test func theStateOfAKeptFeatureOutlivesItsApp() throws {
    let folder = self.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    try self.run(["setStep(by: 3)", "increment"], keptIn: folder)
    let (again, logs) = try self.app(folder: folder)
    #expect(try again.state("counter")[field: "count"] == 3)
    #expect(try again.state("counter")[field: "step"] == 3)
    #expect(logs.lines.isEmpty)
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["counter.state"])
  }

  /// A file cut short, or changed on disk, is set aside (never loaded half) and the instance
  /// starts from its initial state; the reason names the field or the checksum.
  @Test func aDamagedFileIsSetAsideNotLoadedHalf() throws {
    let folder = self.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    try self.run(["increment"], keptIn: folder)
    let file = folder.appendingPathComponent("counter.state")
    let whole = [UInt8](try Data(contentsOf: file))
    try Data(whole.dropLast(3)).write(to: file)
    #expect(
      throws: StateFile.Damaged(
        description: "it ends at byte \(whole.count - 3), inside its state (a write cut short)")
    ) { try StateFile(reading: file) }
    let (cut, _) = try self.app(folder: folder)
    #expect(try cut.state("counter")[field: "count"] == 0)
    #expect(!FileManager.default.fileExists(atPath: file.path))

    var flipped = whole
    flipped[flipped.count - 2] ^= 0xFF
    try Data(flipped).write(to: file)
    #expect(
      throws: StateFile.Damaged(
        description: "its state does not match its SHA-256 (damaged on disk)")
    ) { try StateFile(reading: file) }
    let aside = try FileManager.default.contentsOfDirectory(atPath: folder.path)
    #expect(aside.filter { $0.hasPrefix("counter.damaged-") }.count == 1, "\(aside)")
  }

  /// Another feature's file at the path is not loaded either.
  @Test func anotherFeaturesStateIsSetAside() throws {
    let folder = self.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let file = folder.appendingPathComponent("counter.state")
    try StateFile(featureID: "dev.patchbay.echo", schema: 1, state: WireValue.record([]).bytes)
      .write(to: file)
    let (app, _) = try self.app(folder: folder)
    #expect(try app.state("counter")[field: "count"] == 0)
    #expect(!FileManager.default.fileExists(atPath: file.path))
  }

  /// A state of the right feature and schema that the plugin refuses at `create` (a field the
  /// plugin needs is missing: a field added without a migration) is set aside with one line,
  /// and the app starts, the instance from its initial state.
  @Test func aStateThePluginRefusesIsSetAsideAndTheAppStarts() throws {
    let folder = self.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let file = folder.appendingPathComponent("counter.state")
    try StateFile(
      featureID: "dev.patchbay.counter", schema: 1,
      state: WireValue.record([.init("count", .string("seven"))]).bytes
    ).write(to: file)
    let (app, _) = try self.app(folder: folder)
    #expect(try app.state("counter")[field: "count"] == 0)
    #expect(!FileManager.default.fileExists(atPath: file.path))
    let aside = try FileManager.default.contentsOfDirectory(atPath: folder.path)
    #expect(aside.contains { $0.hasPrefix("counter.damaged-") }, "\(aside)")
    try app.send("counter", "increment")  // and it keeps state again from here
    app.flushKeptState()
    #expect(FileManager.default.fileExists(atPath: file.path))
  }

  /// A state another schema wrote goes through `migrate`: Counter's (schema 1) read by
  /// CounterAlt (schema 2).
  @Test func aStateOfAnotherSchemaIsMigrated() throws {
    let folder = self.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    try self.run(["setStep(by: 4)", "increment"], keptIn: folder)
    let (alt, _) = try self.app("CounterAlt", folder: folder)
    #expect(try alt.state("counter")[field: "value"] == 4)
    #expect(try alt.state("counter")[field: "stride"] == 4)
  }
}
