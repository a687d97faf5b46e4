import Foundation
import PatchbayJACKProbe
import Synchronization
import Testing

/// The JACK backend under PipeWire's JACK API (what `pw-jack` runs a program with), against a
/// private headless PipeWire daemon: the app as a user on a PipeWire desktop runs it.
@Suite struct PipeWireJACKTests {
  /// Two seconds of the trio through PipeWire: the client joins, its ports are listed, PipeWire
  /// calls it at its 128-frame quantum, and it leaves saying what it played.
  @Test func theTrioPlaysThroughPipeWiresJACKAPI() async throws {
    let pipewire = try PrivatePipeWire()
    defer { pipewire.stop() }
    let script = FileManager.default.temporaryDirectory
      .appendingPathComponent("pipewire-\(UUID().uuidString).script").path
    try "wait 2000\nquit\n".write(toFile: script, atomically: true, encoding: .utf8)
    defer { unlink(script) }
    let run = try await CLI.run(
      "run", "\(CheckTests.root)/host-config/trio.toml", "--audio", "jack", "--script", script,
      "--plugin-path", CLI.directory, environment: pipewire.environment)
    #expect(run.exitCode == 0, "\(run.stderr)")
    #expect(
      run.stderr.contains(
        "audio: JACK: client \"patchbay\", 48000 Hz, the server's buffer 128 frames, rendered "
          + "128 at a time\n"))
    #expect(run.stderr.contains("midi: JACK port patchbay:midi_in "))
    // The last line counts the periods PipeWire asked for: about 750 in two seconds, fewer
    // on a loaded machine, never none.
    let summary = try #require(
      run.stderr.split(separator: "\n").last { $0.hasPrefix("audio: JACK: ") })
    let periods = try #require(Int(summary.split(separator: " ")[2]))
    #expect(periods > 10, "\(summary)")
    #expect(summary.contains(" periods of 128 frames, "), "\(summary)")
  }

  /// PipeWire changes its graph's rate while the app plays (`clock.force-rate`, as a desktop
  /// does for a 44.1 kHz player): the processors were made for 48 kHz, so the app plays
  /// silence rather than everything off pitch, and its last line says so.
  @Test func aRateChangeIsPlayedSilentAndSaid() async throws {
    let pipewire = try PrivatePipeWire()
    defer { pipewire.stop() }
    let script = FileManager.default.temporaryDirectory
      .appendingPathComponent("pipewire-\(UUID().uuidString).script").path
    try "wait 8000\nquit\n".write(toFile: script, atomically: true, encoding: .utf8)
    defer { unlink(script) }
    // Once the app plays (at 48 kHz), the rate changes under it: on a thread of its own, which
    // starts now however busy the tests' shared threads are.
    let forced = Mutex<Result<Void, any Error>?>(nil)
    let force = Thread {
      let result = Result<Void, any Error> {
        try pipewire.waitForClient("patchbay")
        usleep(500_000)
        try pipewire.setting("clock.force-rate", "44100")
        // The graph takes the new rate when it is configured again: a new quantum does it.
        try pipewire.setting("clock.force-quantum", "256")
      }
      forced.withLock { $0 = result }
    }
    force.start()
    let run = try await CLI.run(
      "run", "\(CheckTests.root)/host-config/trio.toml", "--audio", "jack", "--script", script,
      "--plugin-path", CLI.directory, environment: pipewire.environment)
    try #require(forced.withLock { $0 }, "the rate was not changed while the app ran").get()
    #expect(run.exitCode == 0, "\(run.stderr)")
    #expect(run.stderr.contains("audio: JACK: client \"patchbay\", 48000 Hz"))
    let summary = try #require(
      run.stderr.split(separator: "\n").last { $0.hasPrefix("audio: JACK: ") })
    #expect(
      summary.contains(
        " periods silent while the server ran at 44100 Hz, not the 48000 Hz the app plays at "),
      "\(summary)")
  }
}
