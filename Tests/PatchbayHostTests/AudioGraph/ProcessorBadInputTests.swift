import Foundation
import PatchbayAudioDevice
import PatchbayAudioGraph
import PatchbayConfig
import PatchbayEncoding
import PatchbayHost
import Testing

/// Processors and sound settings that are wrong: a clear error, and the app keeps running.
@Suite struct ProcessorBadInputTests {
  /// A processor that pushes 10 events a period but declared 2: the rest are dropped and
  /// counted, the 2 a period still become actions, and the app goes on.
  @Test func eventsBeyondWhatAProcessorDeclaredAreDroppedAndCounted() throws {
    let app = try fixtureApp(
      "chattyprocessor", id: "dev.patchbay.fixture-chatty", key: "chatty")
    let handle = try app.instance("chatty")
    let render = try OfflineRender(
      app: app, format: AudioFormat(sampleRate: 48_000, channels: 2, periodFrames: 128))
    let file = temporaryFile("chatty.wav")
    defer { try? FileManager.default.removeItem(atPath: file) }
    let wav = try WAVFileOutput(path: file, format: render.format)
    render.run(frames: 1_280, into: wav)
    wav.close()
    #expect(render.graph.droppedEvents == 80)
    #expect(handle.reducedCount == 20)
    #expect(handle.failures.isEmpty)
    try app.send("chatty", "increment")  // the app goes on
    #expect(handle.reducedCount == 21)
  }

  @Test func soundSettingsOutOfRangeNameTheLineAndTheRange() {
    let text = """
      [app]
      root = "home"
      [plugins]
      load = []
      [[feature]]
      key = "home"
      id = "dev.patchbay.home"
      [audio]
      rate = 7
      period = 100000
      channels = "two"
      [midi]
      input = "usb"
      """
    do {
      _ = try AppConfig(parsing: text, file: "sound.toml")
      Issue.record("the config should be refused")
    } catch {
      #expect(
        error.errors.map(\.reason) == [
          .outOfRange(7, 8_000, 384_000), .outOfRange(100_000, 16, 8_192),
          .wrongType(expected: "an integer", found: "a string"), .badMIDIInput("usb"),
        ])
      #expect(error.errors.map(\.line) == [9, 10, 11, 13])
      #expect(
        error.errors[3].description
          == "sound.toml:13: midi.input: 'usb' is not a MIDI input: use file:PATH, fifo:PATH, stdin, smf:PATH, seq, hw:N, jack or none."
      )
    }
  }

  @Test func theDefaultsNeedNoSoundCard() throws {
    let config = try AppConfig(
      parsing: """
        [app]
        root = "home"
        [plugins]
        load = []
        [[feature]]
        key = "home"
        id = "dev.patchbay.home"
        """, file: "quiet.toml")
    #expect(config.sound.device == "auto")
    #expect(config.sound.midi == .none)
    #expect(config.sound.format == AudioFormat(sampleRate: 48_000, channels: 2, periodFrames: 128))
  }
}
