import Foundation
import PatchbayLV2
import PatchbayLV2Fixtures
import Testing

/// LV2's worker, with a plugin built here (Plugins/Fixtures/LV2Worker) in a bundle the test
/// writes: run() schedules, the host's thread works, the answer reaches the plugin after a
/// later run.
struct LV2WorkerTests {
  static let uri = "urn:patchbay:test:worker"

  @Test func workScheduledInRunIsDoneElsewhereAndAnswered() async throws {
    try LV2Fixtures.loadWorker()
    let info = try LV2World.shared.plugin(uri: Self.uri)
    #expect(info.requiredFeatures == ["http://lv2plug.in/ns/ext/worker#schedule"])
    #expect(info.refusal(allowingNonRealtime: false) == nil)
    let plugin = try LV2Instance(info, sampleRate: 48_000, maximumFrames: 128)
    #expect(plugin.hasWorker)
    for request: Float in [21, 5] {
      try plugin.set("request", to: request)
      // The answer comes with a later period: run until it has (a bound on a hang only).
      var periods = 0
      let deadline = ContinuousClock.now.advanced(by: .seconds(300))
      while plugin["answer"] != request * 2, ContinuousClock.now < deadline {
        plugin.run(frames: 128)
        periods += 1
        try await Task.sleep(for: .milliseconds(1))
      }
      #expect(plugin["answer"] == request * 2, "after \(periods) periods")
      #expect(plugin["elsewhere"] == 1)
    }
  }
}
