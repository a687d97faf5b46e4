import Foundation
import PatchbayConfig
import PatchbayEncoding
import PatchbayHost
import PatchbayTestWaiting
import Testing

/// A running effect across a swap (docs/SWAP.md, "Effects across a swap"). The ticker's effect
/// sends one `tick` per byte the test appends to its file (Plugins/Fixtures/Numbered/Ticker.swift),
/// so every tick is the test's doing, and one lost or doubled shows in the count: no clock.
@Suite(.highPriority) struct EffectsAcrossSwapTests {
  /// A ticker app, the file its ticks come from, and the builds a test swaps between: copies
  /// of the fixture, whose file name picks the build.
  struct Ticking {
    let app: AppRuntime
    let folder: URL
    let source: String
    /// The build the app loaded first.
    let first: String
    let logs = LogLines()

    /// `first`: the build the app starts with; `isolated`: every plugin in a process of its own.
    init(first build: String = "Ticker", isolated: Bool = false) throws {
      self.folder = FileManager.default.temporaryDirectory
        .appendingPathComponent("patchbay-ticker-\(UUID().uuidString)")
      self.source = self.folder.appendingPathComponent("ticks").path
      try FileManager.default.createDirectory(at: self.folder, withIntermediateDirectories: true)
      try Data().write(to: URL(fileURLWithPath: self.source))
      let first = try Self.build(build, in: self.folder, copy: "a")
      self.first = first
      self.app = try makeApp(
        toml: AppConfig.oneFeature(
          "dev.patchbay.fixture.ticker", of: first, key: "ticker",
          plugins: isolated ? ["isolate = [\"all\"]"] : [],
          // These tests crash a process on purpose; on a loaded machine one can take seconds
          // to end, and past `call-seconds` it would be told as a hang. They are about
          // effects, not hangs: the limit is far off.
          tables: isolated ? "[limits]\ncall-seconds = 120" : ""))
      let logs = self.logs
      self.app.onLog { _, _, line in logs.append(line) }
    }

    /// A copy of the fixture as `lib<name>.so`, in a folder of its own named `copy`.
    static func build(_ name: String, in folder: URL, copy: String) throws -> String {
      let path = folder.appendingPathComponent(copy).appendingPathComponent("lib\(name).so").path
      try FileManager.default.createDirectory(
        atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
      try BuiltPlugins.copy("TestFixtureNumbered", to: path)
      return path
    }

    func build(_ name: String, copy: String) throws -> String {
      try Self.build(name, in: self.folder, copy: copy)
    }

    /// Starts the ticker on its file.
    func start() throws {
      try self.app.send("ticker", #"start(source: "\#(self.source)")"#)
    }

    /// Appends one byte to the file: one tick to come.
    func tick() throws {
      let file = try FileHandle(forWritingTo: URL(fileURLWithPath: self.source))
      defer { try? file.close() }
      try file.seekToEnd()
      try file.write(contentsOf: [1])
    }

    /// The ticks the instance has reduced.
    var ticks: Int? {
      guard case .int(let ticks)? = try? self.app.state("ticker")[field: "ticks"] else {
        return nil
      }
      return Int(ticks)
    }

    /// Waits until the count is `count`: the bound only stops a hang.
    func waitForTicks(_ count: Int) async -> Bool {
      await eventually { self.ticks == count }
    }

    func removeFiles() {
      try? FileManager.default.removeItem(at: self.folder)
    }
  }

  @Test func aTimerTicksAcross100SwapsWithNoTickLostOrDoubled() async throws {
    let ticking = try Ticking()
    defer { ticking.removeFiles() }
    // Two copies of one build, swapped in turn: each swap makes a new instance.
    let builds = [ticking.first, try ticking.build("Ticker", copy: "b")]
    try ticking.start()
    let ticker = try ticking.app.instance("ticker")
    for swap in 1...100 {
      try ticking.tick()
      #expect(await ticking.waitForTicks(swap), "tick \(swap): \(ticking.ticks ?? -1)")
      // The first build's effect is the one ticking; every later build's instance ran none,
      // and goes at its swap. Isolated, the retired instance shares its process with the
      // first, whose ticks are on their way through the ring: they are not its own.
      #expect(ticker.earlierGenerations == (swap == 1 ? 0 : 1), "after swap \(swap - 1)")
      try ticking.app.swap("ticker", to: builds[swap % 2])
      #expect(ticker.earlierGenerations == 1, "right after swap \(swap)")
    }
    try ticking.tick()
    #expect(await ticking.waitForTicks(101))
    #expect(ticker.earlierGenerations == 1)
    #expect(try ticking.app.state("ticker")[field: "isRunning"] == true)

    // The new code's pause cancels the first build's effect: nothing runs any more.
    try ticking.app.send("ticker", "pause")
    #expect(await ticking.app.settle(timeout: .seconds(300)))
    #expect(ticker.earlierGenerations == 0)
    #expect(ticking.ticks == 101)
    #expect(ticking.logs.lines.filter { $0.contains("cancelled") }.isEmpty, "\(ticking.logs.lines)")
  }

  @Test func anEffectWhoseActionIsGoneIsCancelledAndNamedOnce() async throws {
    let ticking = try Ticking()
    defer { ticking.removeFiles() }
    try ticking.start()
    try ticking.tick()
    #expect(await ticking.waitForTicks(1))
    try ticking.app.swap("ticker", to: try ticking.build("TickerRenamed", copy: "b"))
    #expect(try ticking.app.instance("ticker").earlierGenerations == 1)

    try ticking.tick()  // the old effect sends `tick`, which the new code calls `beat`
    #expect(await ticking.app.settle(timeout: .seconds(300)))
    #expect(try ticking.app.instance("ticker").earlierGenerations == 0)
    #expect(ticking.ticks == 1)
    let notes = ticking.logs.lines.filter { $0.contains("of the code before the swap sent") }
    #expect(notes.count == 1, "\(ticking.logs.lines)")
    #expect(
      notes.first?.contains(
        "dev.patchbay.fixture.ticker (ticker): the effect NumberedFixture.Ticker.CancelID.ticking "
          + "of the code before the swap sent 'tick', which the new code has no action for")
        == true,
      "\(notes)")
  }

  @Test func aFeatureThatResumesRestartsItsEffectAndTheOldOneStops() async throws {
    let ticking = try Ticking()
    defer { ticking.removeFiles() }
    try ticking.start()
    try ticking.tick()
    #expect(await ticking.waitForTicks(1))
    try ticking.app.swap("ticker", to: try ticking.build("TickerResuming", copy: "b"))
    #expect(try ticking.app.instance("ticker").earlierGenerations == 0)  // cancelled, not kept

    try ticking.tick()  // the new code's own effect reads it, from where the state says
    #expect(await ticking.waitForTicks(2))
    try ticking.app.send("ticker", "pause")
    #expect(await ticking.app.settle(timeout: .seconds(300)))
    #expect(ticking.ticks == 2)
  }

  @Test func theOldCodesDelayedActionReachesTheNewCode() async throws {
    let app = try makeDemoApp()
    try app.send("counter", "incrementLater(ms: 86400000)")  // a day: running until cancelled
    let counter = try app.instance("counter")
    try app.swap("counter", to: "CounterAlt")
    // Kept: the effect that will finish it goes on, and CounterAlt has `delayedIncrement`.
    #expect(try app.state("counter")[field: "waiting"] == 1)
    #expect(counter.earlierGenerations == 1)
    #expect(counter.isQuiet == false)
    counter.cancelEffects()  // the old generation's too
    #expect(counter.earlierGenerations == 0)
    #expect(await app.settle(timeout: .seconds(300)))
  }

  /// Isolated, a crash soon after a swap rolls it back: the effect the crashed build started
  /// (its `resume`) goes on, its ticks reach the old code again, and the old code's `pause`
  /// stops it.
  @Test func aTimerTicksAcrossARollback() async throws {
    let ticking = try Ticking(isolated: true)
    defer { ticking.removeFiles() }
    try ticking.start()
    try ticking.tick()
    #expect(await ticking.waitForTicks(1))
    try ticking.app.swap("ticker", to: try ticking.build("TickerCrashing", copy: "b"))
    let reason = refusalReason { try ticking.app.send("ticker", "pause") }
    #expect(reason?.contains("Rolled back to \(ticking.first)") == true, "\(reason ?? "")")

    try ticking.tick()
    #expect(await ticking.waitForTicks(2))
    #expect(try ticking.app.state("ticker")[field: "isRunning"] == true)
    try ticking.app.send("ticker", "pause")  // the first build's code: it pauses
    #expect(await ticking.app.settle(timeout: .seconds(300)))
    #expect(ticking.ticks == 2)
  }

  /// Isolated, a crash ends the process and its effects: the new process's `resume` starts
  /// the tick again, from where the state says it was.
  @Test func aTimerThatResumesTicksOnAfterACrash() async throws {
    let ticking = try Ticking(first: "TickerCrashing", isolated: true)
    defer { ticking.removeFiles() }
    try ticking.start()
    try ticking.tick()
    #expect(await ticking.waitForTicks(1))
    let reason = refusalReason { try ticking.app.send("ticker", "pause") }
    #expect(reason?.contains("crashed") == true, "\(reason ?? "")")
    try ticking.tick()
    #expect(await ticking.waitForTicks(2))
    try ticking.tick()
    #expect(await ticking.waitForTicks(3))
  }

  /// Isolated, a crash ends the process and its effects; a feature without a `resume` gets
  /// back the effects that still ran, each started again from the action that began it on the
  /// state it was reduced on. `start`'s one-off tick had ended and does not come again.
  @Test func aTimerWithoutResumeTicksOnAfterACrash() async throws {
    let ticking = try Ticking(first: "TickerTailing", isolated: true)
    defer { ticking.removeFiles() }
    try ticking.start()  // one tick at once, then one per byte
    #expect(await ticking.waitForTicks(1))
    try ticking.tick()
    #expect(await ticking.waitForTicks(2))
    let reason = refusalReason { try ticking.start() }  // this build crashes on a second start
    #expect(reason?.contains("crashed") == true, "\(reason ?? "")")
    #expect(try ticking.app.instance("ticker").isQuiet == false)  // the tail runs again

    try ticking.tick()
    #expect(await ticking.waitForTicks(3))
    try ticking.tick()
    #expect(await ticking.waitForTicks(4))
    try ticking.app.send("ticker", "pause")  // the restarted effect is the code's own: it stops
    #expect(await ticking.app.settle(timeout: .seconds(300)))
    #expect(ticking.ticks == 4)
    #expect(ticking.logs.lines.filter { $0.contains("ended with its process") }.isEmpty)
  }

  /// An effect that ended before the crash (here, cancelled by `pause`) is not started again.
  @Test func anEffectThatEndedBeforeACrashStaysEnded() async throws {
    let ticking = try Ticking(first: "TickerTailing", isolated: true)
    defer { ticking.removeFiles() }
    try ticking.start()
    #expect(await ticking.waitForTicks(1))
    try ticking.app.send("ticker", "pause")
    #expect(await ticking.app.settle(timeout: .seconds(300)))
    let reason = refusalReason { try ticking.app.send("ticker", "pause") }  // a second: crash
    #expect(reason?.contains("crashed") == true, "\(reason ?? "")")
    #expect(try ticking.app.instance("ticker").isQuiet == true)

    try ticking.tick()  // nothing reads it
    #expect(await ticking.app.settle(timeout: .seconds(300)))
    #expect(ticking.ticks == 1)
  }
}
