import Foundation
import PatchbayConfig
import PatchbayEncoding
import PatchbayHost
import PatchbayWatch
import Testing

/// `--watch`: a rebuilt plugin file is swapped in once it is whole; a half-written or foreign
/// file is reported and never loaded.
@Suite struct PluginWatcherTests {
  /// An app whose counter comes from a copy of libCounter.so in a folder of its own, watched.
  final class Fixture: @unchecked Sendable {
    let folder: URL
    let plugin: String
    let app: AppRuntime
    let watcher: PluginWatcher
    private let lines = LockedBox<[String]>([])

    /// `replacedBeforeWatching`: the plugin file is replaced by that build after the app
    /// loaded it and before the watcher starts (a build finishing while the app starts).
    init(
      interval: Duration = .milliseconds(20), quietPeriod: Duration = .milliseconds(60),
      replacedBeforeWatching: String? = nil
    ) throws {
      self.folder = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
      try FileManager.default.createDirectory(at: self.folder, withIntermediateDirectories: true)
      self.plugin = self.folder.appendingPathComponent("libCounter.so").path
      try BuiltPlugins.copy("Counter", to: self.plugin)
      let configFile = self.folder.appendingPathComponent("app.toml").path
      try AppConfig.oneFeature("dev.patchbay.counter", of: self.plugin, key: "counter")
        .write(toFile: configFile, atomically: true, encoding: .utf8)
      let config = try AppConfig(contentsOf: configFile)
      let loader = config.loader()
      self.app = try AppRuntime(
        config: config, registry: try config.loadPlugins(with: loader), loader: loader)
      if let name = replacedBeforeWatching {
        try BuiltPlugins.copy(name, to: self.plugin + ".tmp")
        guard rename(self.plugin + ".tmp", self.plugin) == 0 else {
          throw CocoaError(.fileWriteUnknown)
        }
      }
      let lines = self.lines
      self.watcher = PluginWatcher(app: self.app, interval: interval, quietPeriod: quietPeriod) {
        line in lines.mutate { $0.append(line) }
      }
      self.watcher.start()
    }

    deinit {
      self.watcher.stop()
      try? FileManager.default.removeItem(at: self.folder)
    }

    var reports: [String] { self.lines.value }

    /// Waits until `condition` holds. The bound only stops a hang: a loaded machine can take
    /// seconds to copy and load a plugin, so no test here asserts how soon.
    func wait(for condition: () throws -> Bool) async throws -> Bool {
      let deadline = ContinuousClock.now + .seconds(300)
      while ContinuousClock.now < deadline {
        if try condition() { return true }
        try await Task.sleep(for: .milliseconds(10))
      }
      return false
    }

    /// Replaces the plugin file the way a linker does: a new file renamed over the old.
    func replace(with name: String) throws {
      let temporary = self.plugin + ".tmp"
      try BuiltPlugins.copy(name, to: temporary)
      guard rename(temporary, self.plugin) == 0 else { throw CocoaError(.fileWriteUnknown) }
    }

    /// Overwrites the plugin file in place with `bytes`.
    func overwrite(with bytes: Data) throws {
      try bytes.write(to: URL(fileURLWithPath: self.plugin))
    }
  }

  @Test func aRebuiltFileIsSwappedInWithTheState() async throws {
    let fixture = try Fixture()
    try fixture.app.send("counter", "increment")
    try fixture.replace(with: "CounterAlt")
    // The watcher reports a swap after it is made: wait for the line, not the new generation.
    #expect(
      try await fixture.wait {
        fixture.reports.contains {
          $0.hasPrefix("swapped dev.patchbay.counter: libCounter.so → libCounter.so")
        }
      }, "\(fixture.reports)")
    #expect(try fixture.app.instance("counter").feature.schemaVersion == 2)
    #expect(try fixture.app.state("counter")[field: "value"] == 1)
  }

  /// A file replaced between the app's load and the watcher's start is a change too: the
  /// watcher compares with the file as it was loaded, not as it found it.
  @Test func aFileReplacedBeforeTheWatcherStartedIsSwappedIn() async throws {
    let fixture = try Fixture(replacedBeforeWatching: "CounterAlt")
    #expect(
      try await fixture.wait { try fixture.app.instance("counter").feature.schemaVersion == 2 },
      "\(fixture.reports)")
  }

  /// With inotify, a file renamed into place is swapped at once: here the first poll would
  /// come after an hour, longer than the test waits, so a swap at all was inotify's.
  @Test func aFinishedFileIsSeenWithoutWaitingForThePoll() async throws {
    let fixture = try Fixture(interval: .seconds(3_600), quietPeriod: .seconds(3_600))
    guard fixture.watcher.usesNotifications else {
      Issue.record("inotify is unavailable here; the watcher polls only")
      return
    }
    try fixture.app.send("counter", "increment")
    try fixture.replace(with: "CounterAlt")
    #expect(
      try await fixture.wait { try fixture.app.instance("counter").feature.schemaVersion == 2 },
      "\(fixture.reports)")
    #expect(try fixture.app.state("counter")[field: "value"] == 1)
  }

  @Test func aHalfWrittenFileIsNeverLoaded() async throws {
    let fixture = try Fixture()
    try fixture.app.send("counter", "increment")
    let whole = try Data(contentsOf: URL(fileURLWithPath: try BuiltPlugins.path("CounterAlt")))
    try fixture.overwrite(with: whole.prefix(whole.count / 3))
    #expect(
      try await fixture.wait {
        fixture.reports.contains { $0.contains("changed but is cut short") }
      })
    #expect(try fixture.app.instance("counter").feature.schemaVersion == 1)
    #expect(try fixture.app.state("counter")[field: "count"] == 1)
    // The rest of the file arrives: now it loads.
    try fixture.overwrite(with: whole)
    #expect(
      try await fixture.wait { try fixture.app.instance("counter").feature.schemaVersion == 2 },
      "\(fixture.reports)")
    #expect(try fixture.app.state("counter")[field: "value"] == 1)
  }

  @Test func aFileThatIsNotAPluginIsReported() async throws {
    let fixture = try Fixture()
    try fixture.app.send("counter", "increment")
    try fixture.overwrite(with: Data("not a plugin".utf8))
    #expect(
      try await fixture.wait {
        fixture.reports.contains { $0.contains("changed but is not an ELF file") }
      })
    #expect(try fixture.app.state("counter")[field: "count"] == 1)
    try fixture.app.send("counter", "increment")  // still running the old code
    #expect(try fixture.app.state("counter")[field: "count"] == 2)
  }

  @Test func aFileWithoutTheFeatureIsRefused() async throws {
    let fixture = try Fixture()
    try fixture.app.send("counter", "increment")
    try fixture.replace(with: "Echo")
    #expect(
      try await fixture.wait {
        fixture.reports.contains { $0.contains("has no feature 'dev.patchbay.counter'") }
      })
    #expect(try fixture.app.state("counter")[field: "count"] == 1)
  }

  /// A rebuilt plugin of functions only (Theory) is swapped by `--watch` too: a pointer
  /// resolved before the rebuild runs the new generation's code.
  @Test func aRebuiltFunctionPluginRetargetsItsPointers() async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let theory = folder.appendingPathComponent("libTheory.so").path
    try BuiltPlugins.copy("Theory", to: theory)
    let config = try AppConfig(
      parsing: AppConfig.oneFeature(
        "dev.patchbay.counter", of: try BuiltPlugins.path("Counter"), key: "counter",
        also: [theory]),
      file: folder.appendingPathComponent("app.toml").path)
    let app = try AppRuntime(
      config: config, registry: try config.loadPlugins(with: config.loader()))
    let lines = LockedBox<[String]>([])
    let watcher = PluginWatcher(
      app: app, interval: .milliseconds(20), quietPeriod: .milliseconds(60)
    ) {
      line in lines.mutate { $0.append(line) }
    }
    watcher.start()
    defer { watcher.stop() }
    let pointer = try app.resolve("Theory", "note_frequency", "double(int32, double)")
    let before = app.registry.provider("Theory")?.generation
    // A rebuild: a new file renamed over the old.
    let temporary = theory + ".tmp"
    try BuiltPlugins.copy("Theory", to: temporary)
    try FileManager.default.setAttributes(
      [.modificationDate: Date(timeIntervalSince1970: 1_700_000_000)], ofItemAtPath: temporary)
    #expect(rename(temporary, theory) == 0)
    // The watcher reports a swap after it is made: wait for the line, then look at the
    // generation (the generation changes first, so waiting for it raced the line).
    let swapped = { lines.value.contains { $0.hasPrefix("swapped dev.patchbay.theory-plugin") } }
    let deadline = ContinuousClock.now + .seconds(300)
    while ContinuousClock.now < deadline, !swapped() {
      try await Task.sleep(for: .milliseconds(10))
    }
    #expect(swapped(), "\(lines.value)")
    #expect(app.registry.provider("Theory")?.generation != before, "\(lines.value)")
    let frequency = unsafeBitCast(pointer, to: (@convention(c) (Int32, Double) -> Double).self)
    #expect(frequency(81, 440) == 880)
    #expect(try app.resolve("Theory", "note_frequency", "double(int32, double)") == pointer)
  }
}
