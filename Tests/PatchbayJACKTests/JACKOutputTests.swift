import CJACK
import Foundation
import PatchbayAudioDevice
import PatchbayJACK
import PatchbayJACKProbe
import PatchbayMIDI
import PatchbayTestWaiting
import Synchronization
import Testing

/// The JACK output against a real server (`jackd -d dummy`, one per test, under a private
/// name): its ports, its process callback, a change of buffer size, the server's loss.
@Suite(.highPriority, .serialized, .oneJACKServerAtATime) struct JACKOutputTests {
  @Test func itsPortsAppearOnTheServer() async throws {
    let server = try PrivateJACKServer()
    defer { server.stop() }
    let output = try JACKOutput(
      clientName: "patchbay", serverName: server.name, channels: 2)
    defer { output.close() }
    try output.activate(rendering: Ramp())
    #expect(output.portNames == ["patchbay:out_1", "patchbay:out_2"])
    let listed = server.withClient { client in Self.ports(client, matching: "patchbay:") }
    #expect(listed == ["patchbay:out_1", "patchbay:out_2"])
  }

  @Test func theServerCallsTheRendererEveryPeriod() async throws {
    let server = try PrivateJACKServer(frames: 128, rate: 48_000)
    defer { server.stop() }
    let ramp = Ramp()
    let output = try JACKOutput(
      clientName: "patchbay", serverName: server.name, channels: 2)
    defer { output.close() }
    #expect(output.format == AudioFormat(sampleRate: 48_000, channels: 2, periodFrames: 128))
    try output.activate(rendering: ramp)
    #expect(await eventually { output.statistics.periods >= 50 })
    output.close()
    #expect(ramp.lastFrames.load(ordering: .relaxed) == 128)
    #expect(ramp.calls.load(ordering: .relaxed) == output.statistics.periods)
    // Each callback's lateness is recorded: a histogram of one sample a period.
    #expect(output.lateness.samples == output.statistics.periods)
  }

  @Test func aNewBufferSizeIsFollowed() async throws {
    let server = try PrivateJACKServer(frames: 128)
    defer { server.stop() }
    let ramp = Ramp()
    let output = try JACKOutput(
      clientName: "patchbay", serverName: server.name, channels: 2)
    defer { output.close() }
    try output.activate(rendering: ramp)
    #expect(await eventually { output.statistics.periods >= 10 })
    let changed = server.withClient { jack_set_buffer_size($0, 256) }
    #expect(changed == 0)
    #expect(await eventually { output.statistics.bufferFrames == 256 })
    let before = output.statistics.periods
    #expect(await eventually { output.statistics.periods >= before + 10 })
    #expect(ramp.lastFrames.load(ordering: .relaxed) == 256)
    #expect(output.format.periodFrames == 256)
    var sizes: [Int] = []
    while let event = output.events.pop() {
      if event.kind == .bufferSize { sizes.append(event.value) }
    }
    #expect(sizes.last == 256)
  }

  @Test func aPeriodLongerThanTheChunkIsRenderedInChunks() async throws {
    let server = try PrivateJACKServer(frames: 256)
    defer { server.stop() }
    let ramp = Ramp()
    let output = try JACKOutput(clientName: "patchbay", serverName: server.name, channels: 2)
    defer { output.close() }
    try output.activate(rendering: ramp, inChunksOf: 64)
    #expect(await eventually { output.statistics.periods >= 20 })
    output.close()
    let (periods, calls) = (output.statistics.periods, ramp.calls.load(ordering: .relaxed))
    #expect(ramp.lastFrames.load(ordering: .relaxed) == 64)
    #expect(calls == 4 * periods, "\(calls) calls for \(periods) periods of 256 frames")
  }

  @Test func losingTheServerIsSaidOnceAndTheAppGoesOn() async throws {
    let server = try PrivateJACKServer()
    defer { server.stop() }
    let output = try JACKOutput(
      clientName: "patchbay", serverName: server.name, channels: 2)
    try output.activate(rendering: Ramp())
    #expect(await eventually { output.statistics.periods >= 10 })
    server.kill()
    #expect(await eventually { output.statistics.serverLost })
    #expect(output.serverLostReason?.isEmpty == false)
    output.close()
    output.close()
  }

  /// 300 notes from another client's MIDI output reach the app's MIDI input through
  /// `midi_in`, in order, none lost, parsed as ALSA's are.
  @Test func midiSentToThePortReachesTheMIDIInput() async throws {
    let server = try PrivateJACKServer()
    defer { server.stop() }
    let output = try JACKOutput(
      clientName: "patchbay", serverName: server.name, channels: 2, midiInput: true)
    defer { output.close() }
    let port = try #require(output.midiInput)
    #expect(port.portName == "patchbay:midi_in")
    try output.activate(rendering: Ramp())
    let probe = try #require(JACKProbe(server: server.name, captureFrames: 1))
    defer { probe.close() }
    #expect(probe.connect("probe:midi_out", to: "patchbay:midi_in"))
    let midi = MIDIInput(source: port)
    midi.start()
    var notes: [UInt8] = []
    for batch in 0..<10 {
      for note in 0..<30 { probe.send([0x90, UInt8(batch * 10 + note % 10), UInt8(1 + note)]) }
      #expect(
        await eventually { port.received >= (batch + 1) * 30 },
        "\(port.received) received, batch \(batch)")
    }
    #expect(
      await eventually {
        while let event = midi.events.pop() {
          if event.kind == .noteOn { notes.append(event.note) }
        }
        return notes.count >= 300
      })
    output.close()
    midi.wait()
    #expect(notes.count == 300)
    #expect(notes.prefix(12) == [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 1])
    #expect(port.dropped == 0)
    #expect(midi.isFinished)
  }

  /// A click rendered at every frame time that is a multiple of 1,000 arrives at a connected
  /// recorder on exactly those frames, for a second of sound: none late, early, lost or
  /// doubled, across 256-frame periods rendered in 128-frame chunks. (The recorder keeps each
  /// frame's time: a loaded machine's xrun skips periods, which must not read as a shift.)
  @Test func aClickTrackArrivesSampleAccurate() async throws {
    let server = try PrivateJACKServer(frames: 256)
    defer { server.stop() }
    let output = try JACKOutput(clientName: "patchbay", serverName: server.name, channels: 2)
    defer { output.close() }
    try output.activate(rendering: Click(every: 1_000), inChunksOf: 128)
    let probe = try #require(JACKProbe(server: server.name, captureFrames: 48_000))
    defer { probe.close() }
    #expect(probe.connect("patchbay:out_1", to: "probe:in_1"))
    #expect(probe.connect("patchbay:out_2", to: "probe:in_2"))
    // A connection made now is in the graph by the period after next.
    let connected = output.statistics.periods
    #expect(await eventually { output.statistics.periods >= connected + 4 })
    probe.startCapture()
    #expect(await eventually { probe.capturedFrames == 48_000 }, "\(probe.capturedFrames)")
    for channel in 0..<2 {
      let frames = probe.captured(channel: channel)
      let wrong = frames.filter { ($0.sample == 1) != ($0.frameTime % 1_000 == 0) }
      #expect(wrong.isEmpty, "channel \(channel + 1): \(wrong.prefix(5))")
      #expect(frames.count { $0.sample == 1 } >= 40)
    }
  }

  /// JACK2's registry holds eight servers and keeps a killed one's entry: without the clean
  /// restart in `stop()`, the ninth server here would not start ("too many servers").
  @Test func killedServersLeaveNothingBehind() async throws {
    for _ in 1...9 {
      let server = try PrivateJACKServer()
      let output = try JACKOutput(clientName: "patchbay", serverName: server.name, channels: 2)
      try output.activate(rendering: Ramp())
      server.kill()
      #expect(await eventually { output.statistics.serverLost })
      output.close()
      server.stop()
      let left = try FileManager.default.contentsOfDirectory(atPath: "/dev/shm")
        .filter { $0.contains(server.name) }
      #expect(left.isEmpty, "left in /dev/shm: \(left)")
    }
    let tenth = try PrivateJACKServer()
    tenth.stop()
  }

  @Test func noServerIsOneLineNamingIt() {
    #expect {
      _ = try JACKOutput(
        clientName: "patchbay", serverName: "patchbay-test-nobody", channels: 2)
    } throws: { error in
      let line = (error as? AudioError)?.description ?? ""
      return line.contains("no server \"patchbay-test-nobody\" is running")
        && line.contains("jackd -n patchbay-test-nobody") && !line.contains("\n")
    }
  }

  /// The ports on the server whose names start with `prefix`, sorted.
  private static func ports(_ client: OpaquePointer, matching prefix: String) -> [String] {
    guard let list = jack_get_ports(client, nil, nil, 0) else { return [] }
    defer { jack_free(list) }
    var names: [String] = []
    var index = 0
    while let name = list[index] {
      let port = String(cString: name)
      if port.hasPrefix(prefix) { names.append(port) }
      index += 1
    }
    return names.sorted()
  }
}

/// A renderer that writes 1 on frames whose JACK frame time is a multiple of `every`, and 0
/// elsewhere.
private final class Click: AudioRenderer, @unchecked Sendable {
  let every: UInt64
  init(every: UInt64) { self.every = every }

  func render(into mix: UnsafeMutablePointer<Float>, frames: Int, steadyTime: UInt64) {
    for frame in 0..<frames where (steadyTime + UInt64(frame)) % self.every == 0 {
      (mix[frame * 2], mix[frame * 2 + 1]) = (1, 1)
    }
  }
}

/// A renderer that writes a rising ramp and remembers the last period's length.
private final class Ramp: AudioRenderer, @unchecked Sendable {
  let calls = Atomic<Int>(0)
  let lastFrames = Atomic<Int>(0)

  func render(into mix: UnsafeMutablePointer<Float>, frames: Int, steadyTime: UInt64) {
    for frame in 0..<frames { mix[frame * 2] = Float(frame) / Float(frames) }
    self.lastFrames.store(frames, ordering: .relaxed)
    self.calls.add(1, ordering: .relaxed)
  }
}
