import Foundation
import PatchbayConfig
import PatchbayDevTools
import PatchbayHost
import Testing

/// What the feed sends a page per action: the change, not the state, however large the state;
/// each action's reduce time and the effects it started; and, for actions that come faster
/// than a page can show them, one diff for the batch.
@Suite struct DevToolsFeedTests {
  func app(_ text: String) throws -> AppRuntime {
    let config = try AppConfig(parsing: text, file: "feed.toml")
    return try AppRuntime(config: config, registry: try config.loadPlugins(with: config.loader()))
  }

  func hugeApp() throws -> AppRuntime {
    try self.app(
      AppConfig.oneFeature(
        "dev.patchbay.fixture-huge", of: try BuiltPlugins.fixture("huge"),
        key: "huge", tables: "[limits]\nstate-bytes = 67108864"))
  }

  @Test func aPageReceivesTheChangeNotTheStateOfAFiveMegabyteState() async throws {
    let app = try self.hugeApp()
    try app.send("huge", "grow(bytes: 5000000)")
    _ = await app.settle()
    let feed = DevToolsFeed()
    feed.attach(to: app)
    defer { feed.detach() }
    var entries = feed.subscribe().makeAsyncIterator()
    for count in 1...3 {
      try app.send("huge", "touch")
      await feed.flush()
      let entry = try #require(await entries.next())
      // The whole entry: its step, time, instance, action, source, reduce time and one change.
      #expect(entry.contains(#""changes":[{"p":"/count","v":\#(count)}]"#), "\(entry)")
      #expect(entry.utf8.count < 200, "\(entry.utf8.count) bytes: \(entry.prefix(300))")
    }
    #expect(try app.state("huge").json().utf8.count > 5_000_000)
  }

  @Test func actionsInOneBatchShareOneDiffOnTheLastOfThem() async throws {
    let app = try self.hugeApp()
    let feed = DevToolsFeed()
    feed.attach(to: app)
    defer { feed.detach() }
    // One job on the queue: the pump's batch comes before all three or after all three.
    try app.perform { for _ in 0..<3 { try app.send("huge", "touch") } }
    await feed.flush()
    let actions = feed.timeline().filter { $0.contains(#""kind":"action""#) }
    #expect(actions.count == 3)
    #expect(actions.prefix(2).allSatisfy { !$0.contains(#""changes""#) }, "\(actions)")
    #expect(actions.last?.contains(#""changes":[{"p":"/count","v":3}],"folded":3"#) == true)
  }

  /// Actions faster than snapshots are affordable: some entries carry no diff, a later one
  /// (or a `changes` message) carries theirs. A page's copy, updated only by what it
  /// receives, is the app's state all the same.
  @Test func aFastStreamIsDiffedLessOftenAndThePagesCopyStaysExact() async throws {
    let app = try self.app(
      AppConfig.oneFeature(
        "dev.patchbay.counter", of: try BuiltPlugins.path("Counter"), key: "counter"))
    // No share of the reduces' time for snapshots, none for staleness, batches only when
    // flushed: what follows does not hang on how fast, or how busy, this machine is.
    var pacing = DevToolsFeed.Pacing()
    (pacing.snapshotShare, pacing.stalest) = (0, .seconds(3_600))
    pacing.batchInterval = .seconds(3_600)
    let feed = DevToolsFeed(pacing: pacing)
    feed.attach(to: app)
    defer { feed.detach() }
    var copy: Any? = try JSONSerialization.jsonObject(
      with: Data(try app.state("counter").json().utf8))
    for _ in 0..<20 {
      try app.perform { for _ in 0..<10 { try app.send("counter", "increment") } }
      await feed.flush(diffs: false)
    }
    await feed.flush()
    let entries = try feed.timeline().map {
      try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
    }
    #expect(entries.filter { $0["kind"] as? String == "action" }.count == 200)
    // The first batch is diffed (no snapshot cost is known yet), then none until the end:
    // the last flush's `changes` message carries the other 190 actions' diff.
    let diffs = entries.filter { $0["changes"] != nil }
    #expect(diffs.count == 2, "\(diffs.count) diffs for 20 batches")
    #expect(diffs.last?["kind"] as? String == "changes")
    #expect(diffs.compactMap { $0["folded"] as? Int }.reduce(0, +) == 200)
    for entry in diffs {
      for change in entry["changes"] as? [[String: Any]] ?? [] {
        let pointer = change["p"] as? String ?? ""
        copy = StateChangesTests.set(
          copy, at: StateChangesTests.tokens(pointer)[...],
          to: change["removed"] == nil ? change["v"] : nil)
      }
    }
    let now = try JSONSerialization.jsonObject(with: Data(try app.state("counter").json().utf8))
    #expect((copy as? NSObject) == (now as? NSObject), "\(String(describing: copy)) ≠ \(now)")
  }

  @Test func eachActionSaysHowLongItsReduceTookAndTheEffectsItStarted() async throws {
    let app = try self.app(
      AppConfig.oneFeature(
        "dev.patchbay.counter", of: try BuiltPlugins.path("Counter"), key: "counter"))
    let feed = DevToolsFeed()
    feed.attach(to: app)
    defer { feed.detach() }
    try app.send("counter", "increment")
    try app.send("counter", "incrementLater(ms: 600000)")  // a sleep that outlives the test
    await feed.flush()
    let actions = feed.timeline().filter { $0.contains(#""kind":"action""#) }
    try #require(actions.count == 2, "\(actions)")
    for action in actions {
      let nanoseconds = try #require(action.firstMatch(of: /"ns":(\d+)/)?.1).flatMap { Int($0) }
      #expect((nanoseconds ?? 0) > 0, "\(action)")
    }
    let plugin = try app.instance("counter").feature.plugin
    if app.loader.isolates(plugin.id, file: plugin.path) {
      // In a process of its own (`make test`'s isolated run), counting them would cost a
      // round trip an action: not counted.
      #expect(actions.allSatisfy { !$0.contains(#""effects""#) }, "\(actions)")
    } else {
      #expect(actions[0].contains(#""effects":0"#), "\(actions[0])")
      #expect(actions[1].contains(#""effects":1"#), "\(actions[1])")
    }
    try app.instance("counter").cancelEffects()
  }

  /// A reduce that left no effects spares the next one a question to the plugin; an effect
  /// started while no page watched must not be counted against the next action.
  @Test func anEffectStartedWhileNoPageWatchedIsNotTheNextActionsOwn() async throws {
    let app = try self.app(
      AppConfig.oneFeature(
        "dev.patchbay.counter", of: try BuiltPlugins.path("Counter"), key: "counter"))
    let plugin = try app.instance("counter").feature.plugin
    guard !app.loader.isolates(plugin.id, file: plugin.path) else { return }  // not counted
    defer { try? app.instance("counter").cancelEffects() }
    let first = DevToolsFeed()
    first.attach(to: app)
    try app.send("counter", "increment")  // leaves none running
    await first.flush()
    first.detach()
    try app.send("counter", "incrementLater(ms: 600000)")  // unwatched: one running
    let second = DevToolsFeed()
    second.attach(to: app)
    defer { second.detach() }
    try app.send("counter", "increment")
    await second.flush()
    let actions = second.timeline().filter { $0.contains(#""kind":"action""#) }
    try #require(actions.count == 1, "\(actions)")
    #expect(actions[0].contains(#""effects":0"#), "\(actions[0])")
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

  /// A page that goes while entries stream in: its task's cancellation (the runtime holding a
  /// lock of its own) and the feed's yield (holding the feed's) once waited on each other; it
  /// showed as a hang under ThreadSanitizer. Each round cancels 20 reading pages mid-stream.
  @Test func pagesThatGoWhileEntriesStreamInHangNothing() async throws {
    let feed = DevToolsFeed()
    let writer = Thread {
      for index in 0..<20_000 { feed.note(kind: "log", "line \(index)") }
    }
    writer.start()
    for _ in 0..<25 {
      let readers = (0..<20).map { _ in
        let stream = feed.subscribe()
        return Task { for await entry in stream { _ = entry } }
      }
      await Task.yield()
      for reader in readers { reader.cancel() }
      for reader in readers { await reader.value }
    }
    try await waitForPages(0, feed)
    feed.note(kind: "log", "after")
    #expect(feed.timeline().last?.contains(#""text":"after""#) == true)
  }
}
