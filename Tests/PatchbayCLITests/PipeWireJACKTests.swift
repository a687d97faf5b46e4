import Foundation
import PatchbayJACKProbe
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
}
