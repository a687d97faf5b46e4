import Foundation
import PatchbayConfig
import PatchbayDevTools
import PatchbayHost
import Testing

/// The Plugins view's facts, as `/api/app` gives them: each plugin's life (a swap, the crash
/// that followed, the rollback, a restart its own log told of) and an isolated plugin's
/// process.
@Suite struct DevToolsPluginsTests {
  typealias Fixture = DevToolsServerTests.Fixture

  /// The plugins of `/api/app`, by file.
  func plugins(_ fixture: Fixture) async throws -> [String: [String: Any]] {
    let (status, body) = try await fixture.get(fixture.withToken("/api/app"))
    try #require(status == 200, "\(body)")
    let app = try #require(JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any])
    let plugins = try #require(app["plugins"] as? [[String: Any]])
    return Dictionary(uniqueKeysWithValues: plugins.map { ($0["file"] as? String ?? "", $0) })
  }

  func events(_ plugin: [String: Any]?) -> [String] {
    (plugin?["history"] as? [[String: Any]] ?? []).map { "\($0["event"] ?? "")" }
  }

  @Test func aSwapThatCrashesIsRolledBackAndBothFilesSaySo() async throws {
    let valid = try BuiltPlugins.fixture("valid")
    let app = try pluginApp(valid, id: "dev.patchbay.fixture", key: "f", isolated: true)
    let fixture = try await Fixture(app: app) { () throws(AppError) in app }
    defer { Task { await fixture.devtools.stop() } }
    try app.send("f", "noop")
    let crashes = try BuiltPlugins.fixture("crashes")
    try app.swap("f", to: crashes)
    #expect(throws: AppError.self) { try app.send("f", "noop") }
    let plugins = try await self.plugins(fixture)
    // The build that crashed: swapped in, crashed (its process started again), rolled back.
    #expect(self.events(plugins[crashes]).first == "swap", "\(plugins)")
    #expect(self.events(plugins[crashes]).sorted() == ["crash", "rollback", "swap"], "\(plugins)")
    #expect(plugins[crashes]?["retired"] as? Bool == true)
    // The one it went back to: runs again, in a process of its own.
    #expect(self.events(plugins[valid]) == ["rollback"], "\(plugins)")
    let process = try #require(plugins[valid]?["process"] as? [String: Any], "\(plugins)")
    #expect((process["pid"] as? Int ?? 0) > 0)
    #expect((process["rss"] as? Int ?? 0) > 1_000_000, "a process holds more than 1 MB")
    #expect(process["cpu"] is Double || process["cpu"] is Int)
  }

  @Test func aRestartItsLogTellsOfIsInItsHistoryAndTheTimeline() async throws {
    let fixture = try await Fixture()
    defer { Task { await fixture.devtools.stop() } }
    // As an isolated plugin's process says it crashed outside any call, and was started again.
    fixture.app.hooks.log(
      "dev.patchbay.counter", .error,
      "dev.patchbay.counter crashed: SIGSEGV outside any call from the host. Its process was "
        + "started again, each instance with its state as of its last completed action.")
    fixture.app.hooks.log("dev.patchbay.counter", .info, "just saying")
    let plugins = try await self.plugins(fixture)
    let counter = try #require(plugins.first { $0.key.hasSuffix("libCounter.so") }?.value)
    #expect(self.events(counter) == ["crash"], "\(counter)")
    let plugin = try fixture.app.instance("counter").feature.plugin
    if fixture.app.loader.isolates(plugin.id, file: plugin.path) {
      #expect(((counter["process"] as? [String: Any])?["pid"] as? Int ?? 0) > 0, "\(counter)")
    } else {
      #expect(counter["process"] is NSNull, "in this process: no process of its own")
    }
    let (_, timeline) = try await fixture.get(fixture.withToken("/api/timeline"))
    #expect(
      timeline.contains(
        #""kind":"log","feature":"dev.patchbay.counter","level":"info","text":"just saying""#))
  }
}
