import Foundation
import Patchbay
import PatchbayEncoding
import PatchbayHost
import PatchbayWatch
import Testing

/// The bundled Counter in Embedded Swift (`Plugins/Counter/wasm/Counter.swift`), built as
/// WebAssembly with the Embedded Swift SDK, beside the native Counter: the same actions, the
/// same state hash after each, swaps either way with the state kept, and a delayed increment
/// that the host's timer delivers.
@Suite struct WasmCounterTests {
  static let counter = "dev.patchbay.counter"

  static func app(_ load: String) throws -> AppRuntime {
    try WasmPluginTests.app(load, id: Self.counter)
  }

  static let actions = [
    "increment", "setStep(by: 5)", "increment", "decrement", "rampUp(times: 3)",
    "setStep(by: 9223372036854775807)", "increment", "increment", "reset", "setStep(by: -2)",
    "increment", "incrementLater(ms: 0)", "rampUp(times: 1000)",
  ]

  /// After each action (and what its effects sent, once the app settles) the two apps' states
  /// hash the same: the value encoding `@Feature` writes for Embedded Swift is the bytes Codable
  /// writes for the native build.
  @Test func counterInEmbeddedSwiftKeepsTheStateItsNativeBuildKeeps() async throws {
    let native = try Self.app("Counter")
    let wasm = try Self.app(try WasmFixtures.swift("Counter"))
    // The settle bound only stops a hang: on a loaded machine a starved task wakes late.
    for action in Self.actions {
      try native.send("it", action)
      try wasm.send("it", action)
      #expect(await native.settle(timeout: .seconds(300)))
      #expect(await wasm.settle(timeout: .seconds(300)))
      #expect(try wasm.stateHash() == native.stateHash(), "after \(action)")
    }
    #expect(try wasm.state("it")[field: "count"] == .int(5046))
    #expect(try wasm.renderCurrent() == native.renderCurrent())
  }

  /// Both builds take and refuse the same texts.
  @Test func bothBuildsTakeAndRefuseTheSameText() throws {
    let native = try Self.app("Counter")
    let wasm = try Self.app(try WasmFixtures.swift("Counter"))
    for text in [
      "setStep(by: 1.5)", "setStep(step: 1)", "setStep(1)", "increment(by: 1)", "jump",
      "setStep(by: 2)", "increment",
    ] {
      let nativeTook = (try? native.send("it", text)) != nil
      let wasmTook = (try? wasm.send("it", text)) != nil
      #expect(nativeTook == wasmTook, "\(text): native \(nativeTook), wasm \(wasmTook)")
    }
    #expect(try wasm.state("it")[field: "count"] == .int(3))  // 1, then step 2
    #expect(try wasm.stateHash() == native.stateHash())
    // An unknown action is refused in the same words, naming the actions to send instead.
    func refusal(_ app: AppRuntime) -> String {
      do {
        try app.send("it", "jump")
        return "taken"
      } catch {
        return "\(error)"
      }
    }
    #expect(refusal(wasm).contains("unknown action 'jump'. Actions: increment, decrement, reset"))
    #expect(refusal(wasm) == refusal(native))
  }

  /// A delayed increment is a timer the host holds for the wasm instance: it counts as a
  /// running effect until it fires, and `cancelEffects` stops it. A swap to the native build
  /// leaves it running in the earlier generation, as a native effect is left, and what it sends
  /// reaches the new code.
  @Test func aDelayedIncrementIsATimerTheHostHolds() async throws {
    let app = try Self.app(try WasmFixtures.swift("Counter"))
    try app.send("it", "incrementLater(ms: 86400000)")  // a day: running until cancelled
    let counter = try app.instance("it")
    #expect(counter.isQuiet == false)
    #expect(try app.state("it")[field: "pending"] == .int(1))
    try app.swap(Self.counter, to: try BuiltPlugins.path("Counter"))
    #expect(counter.earlierGenerations == 1)
    #expect(counter.isQuiet == false)
    counter.cancelEffects()
    #expect(counter.isQuiet)
    #expect(counter.earlierGenerations == 0)

    // Fired before the swap back or after it, the increment lands once. (The cancelled one
    // stays pending, as in the native build: it never arrives.)
    try app.swap(Self.counter, to: try WasmFixtures.swift("Counter"))
    try app.send("it", "incrementLater(ms: 10)")
    try app.swap(Self.counter, to: try BuiltPlugins.path("Counter"))
    #expect(await app.settle(timeout: .seconds(300)))
    #expect(try app.state("it")[field: "count"] == .int(1))
    #expect(try app.state("it")[field: "pending"] == .int(1))
  }

  /// Native to wasm and back, mid-count, the state kept each way.
  @Test func aSwapBetweenNativeAndEmbeddedSwiftKeepsTheState() throws {
    let app = try Self.app("Counter")
    try app.send("it", "setStep(by: 3)")
    try app.send("it", "increment")
    try app.swap(Self.counter, to: try WasmFixtures.swift("Counter"))
    #expect(try app.state("it")[field: "count"] == .int(3))
    try app.send("it", "increment")
    try app.swap(Self.counter, to: try BuiltPlugins.path("Counter"))
    #expect(try app.state("it")[field: "count"] == .int(6))
    #expect(try app.state("it")[field: "step"] == .int(3))
  }

  /// Across a change of schema, both ways: the Embedded Swift Counter (schema 1) to the native
  /// CounterAlt (schema 2, which migrates from 1) and back (the wasm Counter's `migrate` reads
  /// schema 2), the count, step and waiting increments kept each way.
  @Test func theEmbeddedCounterMigratesToAndFromCounterAlt() throws {
    let wasm = try WasmFixtures.swift("Counter")
    let app = try Self.app(wasm)
    #expect(app.registry[Self.counter]!.migrates)
    try app.send("it", "setStep(by: 5)")
    try app.send("it", "increment")
    try app.swap(Self.counter, to: try BuiltPlugins.path("CounterAlt"))
    #expect(try app.state("it")[field: "value"] == .int(5))
    #expect(try app.state("it")[field: "stride"] == .int(5))
    try app.send("it", "increment")
    try app.swap(Self.counter, to: wasm)
    #expect(try app.state("it")[field: "count"] == .int(10))
    #expect(try app.state("it")[field: "step"] == .int(5))
    #expect(try app.state("it")[field: "pending"] == .int(0))
    try app.send("it", "decrement")
    #expect(try app.state("it")[field: "count"] == .int(5))
  }

  /// `--watch` on a `.wasm`: a file cut short is reported and never loaded, and the whole one
  /// that replaces it is swapped in with the state (the loop `make dev` of a `patchbay new
  /// --wasm` package runs).
  @Test func theWatcherSwapsInARebuiltModuleOnceItIsWhole() async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("Counter.wasm").path
    let built = try Data(contentsOf: URL(fileURLWithPath: try WasmFixtures.swift("Counter")))
    try built.write(to: URL(fileURLWithPath: file))
    let app = try Self.app(file)
    try app.send("it", "increment")
    let reports = LockedValue<[String]>([])
    let watcher = PluginWatcher(
      app: app, interval: .milliseconds(20), quietPeriod: .milliseconds(60)
    ) { line in reports.withValue { $0.append(line) } }
    watcher.start()
    defer { watcher.stop() }
    func wait(for condition: () -> Bool) async throws -> Bool {
      let deadline = ContinuousClock.now + .seconds(300)  // stops a hang only
      while ContinuousClock.now < deadline {
        if condition() { return true }
        try await Task.sleep(for: .milliseconds(10))
      }
      return false
    }

    try built.prefix(built.count / 2).write(to: URL(fileURLWithPath: file))
    #expect(try await wait { reports.withValue { $0.contains { $0.contains("is cut short") } } })
    #expect(app.registry[Self.counter]!.plugin.generation == 1)
    try app.send("it", "increment")

    let whole = file + ".tmp"
    try built.write(to: URL(fileURLWithPath: whole))
    #expect(rename(whole, file) == 0)
    #expect(try await wait { reports.withValue { $0.contains { $0.hasPrefix("swapped") } } })
    #expect(app.registry[Self.counter]!.plugin.generation == 2)
    #expect(try app.state("it")[field: "count"] == .int(2))
  }
}
