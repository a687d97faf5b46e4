import Foundation
import Testing

/// `@Shared` between plugins in a recording: each holder's `_shared` is a recorded action, so a
/// replay gives every holder what it saw and ends at the same state hash.
@Suite struct SharedReplayTests {
  @Test func aRunWithHeldValuesReplaysToItsHash() async throws {
    // Two copies of the SharedTally fixture (Plugins/Fixtures/Numbered): two plugins.
    let folder = try numberedFixtureFolder(["SharedLeft", "SharedRight"], prefix: "shared-replay")
    defer { try? FileManager.default.removeItem(at: folder) }
    let config = folder.appendingPathComponent("app.toml").path
    try """
    [app]
    root = "left"
    [plugins]
    load = ["\(folder.path)/libSharedLeft.so", "\(folder.path)/libSharedRight.so"]
    [[feature]]
    key = "left"
    id = "dev.patchbay.fixture.sharedleft"
    [[feature]]
    key = "right"
    id = "dev.patchbay.fixture.sharedright"
    parent = "left"
    kind = "child"
    """.write(toFile: config, atomically: true, encoding: .utf8)
    let script = folder.appendingPathComponent("run.script").path
    try """
    send left increment
    send left/right set(5)
    send left incrementLater
    settle
    expect left/right /tally/value 6
    """.write(toFile: script, atomically: true, encoding: .utf8)
    let recording = folder.appendingPathComponent("run.jsonl").path
    let run = try await CLI.run("run", config, "--script", script, "--record", recording)
    #expect(run.exitCode == 0, "\(run.stderr)")
    let hash = try #require(run.stdout.split(separator: "\n").last)
    let lines = try String(contentsOfFile: recording, encoding: .utf8)
    #expect(lines.contains(#""source":"shared""#) && lines.contains("_shared(name:"), "\(lines)")
    let replay = try await CLI.run("replay", recording)
    #expect(replay.exitCode == 0, "\(replay.stderr)")
    #expect(replay.stdout == "\(hash)\n")
  }
}
