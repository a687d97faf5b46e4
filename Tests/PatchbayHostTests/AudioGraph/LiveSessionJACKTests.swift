import PatchbayAudioGraph
import PatchbayConfig
import PatchbayJACK
import PatchbayJACKProbe
import PatchbayMIDI
import PatchbayTestWaiting
import Testing

/// An app playing through a JACK server (`[audio] backend = "jack"`): a private
/// `jackd -d dummy` per test, the trio's processors rendered by the server's callback.
@Suite(.highPriority, .serialized, .oneJACKServerAtATime) struct LiveSessionJACKTests {
  @Test func theTrioPlaysThroughAJACKServer() async throws {
    let server = try PrivateJACKServer(frames: 256, rate: 48_000)
    defer { server.stop() }
    let app = try makeApp("trio")
    var settings = SoundSettings()
    settings.backend = .jack
    settings.jackServer = server.name
    settings.clientName = "trio"
    let live = try LiveSession(app: app, settings: settings)
    live.start()
    #expect(
      live.deviceNote
        == "JACK: client \"trio\", 48000 Hz, the server's buffer 256 frames, rendered 128 at a time"
    )
    #expect(
      live.playbackConnections == [
        "trio:out_1 → system:playback_1", "trio:out_2 → system:playback_2",
      ])
    #expect(live.engine == nil)
    #expect(await eventually { live.statistics.periods >= 50 })
    live.stop()
    // Each 256-frame period of the server is two of the graph's 128-frame periods.
    #expect(live.graph.periodsRendered == 2 * live.statistics.periods)
    #expect(live.graph.format.sampleRate == 48_000)
  }

  /// 100 notes played into the client's `midi_in` by another client reach the Synth's
  /// reducer, in order, as notes from ALSA's sequencer do: the JACK backend's default MIDI
  /// input.
  @Test func midiPatchedIntoTheClientReachesTheReducer() async throws {
    let server = try PrivateJACKServer(frames: 128, rate: 48_000)
    defer { server.stop() }
    let app = try makeApp("trio")
    let synth = try app.instance("metronome/synth")
    let before = synth.reducedCount
    var settings = SoundSettings()
    (settings.backend, settings.jackServer, settings.clientName) = (.jack, server.name, "trio")
    let live = try LiveSession(app: app, settings: settings)
    defer { live.stop() }
    #expect(live.jack?.midiInput?.portName == "trio:midi_in")
    live.start()
    let probe = try #require(JACKProbe(server: server.name, captureFrames: 1))
    defer { probe.close() }
    #expect(probe.connect("probe:midi_out", to: "trio:midi_in"))
    for note in 0..<100 {
      probe.send([0x90, UInt8(40 + note % 40), 100])
      probe.send([0x80, UInt8(40 + note % 40), 0])
      if note % 10 == 9 {
        #expect(await eventually { synth.reducedCount - before >= UInt64(2 * (note + 1)) })
      }
    }
    #expect(await app.settle(timeout: .seconds(300)))
    #expect(synth.reducedCount - before == 200)
    #expect(try app.state("metronome/synth")[field: "notesPlayed"] == 100)
    #expect(try app.state("metronome/synth")[field: "held"] == .list([]))
  }

  @Test func jackMIDIWithoutTheJACKBackendIsOneLineNamingTheMIDITable() throws {
    let app = try makeApp("trio")
    var settings = SoundSettings()
    (settings.device, settings.midi) = ("null", .jack)
    #expect {
      _ = try LiveSession(app: app, settings: settings)
    } throws: { error in
      let line = "\(error)"
      return line.contains("[midi]") && line.contains("--audio jack") && !line.contains("\n")
    }
  }

  @Test func noServerIsOneLineNamingTheAudioTable() throws {
    let app = try makeApp("trio")
    var settings = SoundSettings()
    settings.backend = .jack
    settings.jackServer = "patchbay-test-nobody"
    #expect {
      _ = try LiveSession(app: app, settings: settings)
    } throws: { error in
      let line = "\(error)"
      return line.contains("[audio]") && line.contains("no server \"patchbay-test-nobody\"")
        && !line.contains("\n")
    }
  }

  @Test func theConfigAndTheCommandLineChooseJACK() throws {
    let config = try Self.config(
      audio: """
        backend = "jack"
        client-name = "studio"
        server = "live"
        connect = false
        """, file: "jack.toml")
    #expect(config.sound.backend == .jack)
    #expect(config.sound.clientName == "studio")
    #expect(config.sound.jackServer == "live")
    #expect(config.sound.connectsToPlayback == false)
    #expect(config.sound.playsAudio)

    let fromFlag = try SoundSettings().overriding(device: "jack:other", midiInput: nil)
    #expect(fromFlag.backend == .jack && fromFlag.jackServer == "other")
    let plain = try SoundSettings().overriding(device: "jack", midiInput: nil)
    #expect(plain.backend == .jack && plain.jackServer == nil)
    let back = try config.sound.overriding(device: "null", midiInput: nil)
    #expect(back.backend == .alsa && back.device == "null")
  }

  @Test func anUnknownBackendIsOneLineNamingTheKey() {
    #expect {
      _ = try Self.config(audio: "backend = \"pulse\"", file: "bad.toml")
    } throws: { error in
      "\(error)".contains(
        "bad.toml:9: audio.backend: 'pulse' is not an audio backend: use alsa or jack.")
    }
  }

  /// A one-Counter app whose `[audio]` table is `audio`, from line 9 of `file`.
  private static func config(audio: String, file: String) throws -> AppConfig {
    try AppConfig(
      parsing: """
        [app]
        root = "a"
        [plugins]
        load = ["Counter"]
        [[feature]]
        key = "a"
        id = "dev.patchbay.counter"
        [audio]
        \(audio)
        """, file: file)
  }
}
