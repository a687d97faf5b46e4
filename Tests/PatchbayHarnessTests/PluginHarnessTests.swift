import Foundation
import PatchbayHarness
import Testing

/// PluginHarness drives real plugins as a test does: the Lock fixture (Plugins/Fixtures/
/// Numbered/Lock.swift), loaded from its built file.
@Suite struct PluginHarnessTests {
  /// A folder with the Lock (`libLock.so`, or its mended build as `libLock.so`) and an app of
  /// one lock; the config's path.
  static func lockApp(mended: Bool = false) throws -> String {
    let products = URL(
      fileURLWithPath: (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
        ?? CommandLine.arguments[0]
    ).deletingLastPathComponent()
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("harness-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let name = mended ? "LockFixed" : "Lock"
    try FileManager.default.copyItem(
      at: products.appendingPathComponent("libTestFixtureNumbered.so"),
      to: folder.appendingPathComponent("lib\(name).so"))
    try FileManager.default.createSymbolicLink(
      at: folder.appendingPathComponent("libPatchbaySDK.so"),
      withDestinationURL: products.appendingPathComponent("libPatchbaySDK.so"))
    let config = folder.appendingPathComponent("lock.toml").path
    try """
    [app]
    name = "Lock"
    root = "lock"

    [plugins]
    search-paths = ["."]
    load = ["\(name)"]

    [limits]
    call-seconds = 1

    [[feature]]
    key = "lock"
    id = "dev.patchbay.fixture.lock"
    """.write(toFile: config, atomically: true, encoding: .utf8)
    return config
  }

  @Test func actionsReachTheBuiltPlugin() async throws {
    let app = try PluginHarness(config: try Self.lockApp())
    try await app.send("lock", "dial(3)")
    try await app.send("lock", "turn(by: 7)")
    let state = try app.app.stateValue()
    #expect(state[field: "features"]?[field: "lock"]?[field: "progress"] == .int(1))
    #expect(state[field: "features"]?[field: "lock"]?[field: "position"] == .int(7))
  }

  /// Text that is no action of the feature throws, naming the plugin's reason.
  @Test func anActionThatIsNotOneThrows() async throws {
    let app = try PluginHarness(config: try Self.lockApp())
    await #expect(throws: PluginHarnessFailure.self) { try await app.send("lock", "open") }
  }

  /// A processor that writes NaN throws from the step that made it: the harness plays the
  /// periods that trace it.
  @Test func aProcessorsNaNThrowsFromTheStepThatCausedIt() async throws {
    let app = try PluginHarness(config: try Self.lockApp())
    for digit in [3, 1, 4] { try await app.send("lock", "dial(\(digit))") }
    let failure = await #expect(throws: PluginHarnessFailure.self) {
      try await app.send("lock", "dial(9)")
    }
    #expect(
      failure?.description.contains("its processor wrote NaN") == true,
      "\(String(describing: failure))")
  }

  /// Script lines run as `patchbay run` runs them.
  @Test func scriptLinesRun() async throws {
    let app = try PluginHarness(config: try Self.lockApp())
    try await app.run("send lock dial(3)\nsend lock dial(1)")
    let state = try app.app.stateValue()
    #expect(state[field: "features"]?[field: "lock"]?[field: "progress"] == .int(2))
  }

  /// A crash ends the process (exit code 3, with the host's report), so a test runs the
  /// actions in a process of its own; the mended build runs them to the end.
  @Test func aCrashEndsItsProcessAndTheMendedBuildDoesNot() async throws {
    await #expect(processExitsWith: .exitCode(3)) {
      let app = try PluginHarness(config: try PluginHarnessTests.lockApp())
      for digit in [3, 1, 4, 1] { try await app.send("lock", "dial(\(digit))") }
    }
    await #expect(processExitsWith: .success) {
      let app = try PluginHarness(config: try PluginHarnessTests.lockApp(mended: true))
      for digit in [3, 1, 4, 1] { try await app.send("lock", "dial(\(digit))") }
    }
  }

  /// A hang is a call that does not return within call-seconds: named, exit code 3.
  @Test func aHangEndsItsProcess() async throws {
    await #expect(processExitsWith: .exitCode(3)) {
      let app = try PluginHarness(config: try PluginHarnessTests.lockApp())
      for digit in [3, 1, 4, 5] { try await app.send("lock", "dial(\(digit))") }
    }
  }
}
