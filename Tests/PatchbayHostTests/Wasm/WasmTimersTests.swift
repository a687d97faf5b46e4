import Foundation
import PatchbayHost
import Testing

/// A wasm instance's timers, filed under ids (`Sources/PatchbayWasm/WasmTimers.swift`): the
/// Alarm fixture (`Fixtures/Alarm.swift`, Embedded Swift) starts them with
/// `.cancellable(id:cancelInFlight:)` and stops them with `.cancel(id:)`, in this generation and
/// in the ones a swap left running. Each timer is a day long: one that was not stopped keeps
/// the instance from being quiet, whatever the machine's speed.
@Suite struct WasmTimersTests {
  static let alarm = "dev.patchbay.alarm"
  static let day = 86_400_000

  static func app() throws -> AppRuntime {
    try WasmPluginTests.app(try WasmFixtures.swiftFixture("Alarm"), id: Self.alarm)
  }

  /// `.cancel(id:)` stops the timers filed under its id, and only those.
  @Test func cancelStopsTheTimersOfItsIdAndNoOthers() throws {
    let app = try Self.app()
    let alarm = try app.instance("it")
    try app.send("it", "set(ms: \(Self.day))")
    #expect(!alarm.isQuiet)
    try app.send("it", "cancel")
    #expect(alarm.isQuiet)
    try app.send("it", "other(ms: \(Self.day))")
    try app.send("it", "set(ms: \(Self.day))")
    try app.send("it", "cancel")
    #expect(!alarm.isQuiet)  // "other" runs on
    alarm.cancelEffects()
    #expect(alarm.isQuiet)
    #expect(try app.state("it")[field: "rings"] == .int(0))
  }

  /// `cancelInFlight` stops the alarm set before: set for a day, then for now, it rings once
  /// and nothing is left running.
  @Test func cancelInFlightStartsTheTimerOver() async throws {
    let app = try Self.app()
    try app.send("it", "set(ms: \(Self.day))")
    try app.send("it", "set(ms: 0)")
    // The bound only stops a hang: a day-long timer left running fails it.
    #expect(await app.settle(timeout: .seconds(60)))
    #expect(try app.state("it")[field: "rings"] == .int(1))
  }

  /// After a swap the timer goes on in the earlier generation, and the new code's
  /// `.cancel(id:)` stops it there ("patchbay.effects/1"'s cancelled, through the host).
  @Test func theNewCodesCancelStopsTheEarlierGenerationsTimer() throws {
    let app = try Self.app()
    let alarm = try app.instance("it")
    try app.send("it", "set(ms: \(Self.day))")
    let built = try WasmFixtures.swiftFixture("Alarm")
    let copy = built.replacingOccurrences(of: ".wasm", with: "Swapped.wasm")
    try? FileManager.default.removeItem(atPath: copy)
    try FileManager.default.copyItem(atPath: built, toPath: copy)
    try app.swap(Self.alarm, to: copy)
    #expect(alarm.earlierGenerations == 1)
    #expect(!alarm.isQuiet)
    try app.send("it", "cancel")
    #expect(alarm.isQuiet)
    #expect(alarm.earlierGenerations == 0)
  }
}
