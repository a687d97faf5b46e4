import Foundation
import PatchbayConfig
import PatchbayDevTools
import PatchbayHost
import Testing

/// What the feed sends a page per action: the change, not the state, however large the state.
@Suite struct DevToolsFeedTests {
  @Test func aPageReceivesTheChangeNotTheStateOfAFiveMegabyteState() async throws {
    let text = AppConfig.oneFeature(
      "dev.patchbay.fixture-huge", of: try BuiltPlugins.fixture("huge"),
      key: "huge", tables: "[limits]\nstate-bytes = 67108864")
    let config = try AppConfig(parsing: text, file: "huge.toml")
    let app = try AppRuntime(
      config: config, registry: try config.loadPlugins(with: config.loader()))
    try app.send("huge", "grow(bytes: 5000000)")
    _ = await app.settle()
    let feed = DevToolsFeed()
    feed.attach(to: app)
    var entries = feed.subscribe().makeAsyncIterator()
    for _ in 0..<3 { try app.send("huge", "touch") }
    for count in 1...3 {
      let entry = try #require(await entries.next())
      // The whole entry: its step, time, instance, action, source, and the one change.
      #expect(entry.contains(#""changes":[{"p":"/count","v":\#(count)}]"#), "\(entry)")
      #expect(entry.utf8.count < 200, "\(entry.utf8.count) bytes: \(entry.prefix(300))")
    }
    #expect(try app.state("huge").json().utf8.count > 5_000_000)
  }

  @Test func aPageThatFallsBehindLosesItsOldestEntriesNotTheAppsTime() async throws {
    let feed = DevToolsFeed()
    let stream = feed.subscribe()
    for index in 0..<(DevToolsFeed.pageBuffer + 10) { feed.note(kind: "log", "line \(index)") }
    var entries = stream.makeAsyncIterator()
    let first = try #require(await entries.next())
    // The 10 oldest went; the page sees the gap in its numbering and reloads.
    #expect(first.contains(#""text":"line 10""#), "\(first)")
    #expect(feed.timeline().count == DevToolsFeed.pageBuffer + 10)
  }
}
