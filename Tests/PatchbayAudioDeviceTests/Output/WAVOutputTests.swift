import Foundation
import PatchbayAudioDevice
import Testing

/// A WAV written by ALSA's file plugin, read back as a WAV.
struct WAV {
  var channels = 0
  var sampleRate = 0
  var bitsPerSample = 0
  var samples: [Int16] = []

  init(path: String) throws {
    let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    func integer(_ offset: Int, _ size: Int) -> Int {
      (0..<size).reduce(0) { $0 | Int(bytes[offset + $1]) << (8 * $1) }
    }
    #expect(Array(bytes[0..<4]) == Array("RIFF".utf8))
    #expect(Array(bytes[8..<12]) == Array("WAVE".utf8))
    var offset = 12
    while offset + 8 <= bytes.count {
      let id = String(decoding: bytes[offset..<offset + 4], as: UTF8.self)
      let size = integer(offset + 4, 4)
      if id == "fmt " {
        #expect(integer(offset + 8, 2) == 1)  // PCM
        self.channels = integer(offset + 10, 2)
        self.sampleRate = integer(offset + 12, 4)
        self.bitsPerSample = integer(offset + 22, 2)
      } else if id == "data" {
        let end = min(bytes.count, offset + 8 + size)
        self.samples = stride(from: offset + 8, to: end - 1, by: 2).map {
          Int16(bitPattern: UInt16(integer($0, 2)))
        }
      }
      offset += 8 + size
    }
  }
}

@Suite struct WAVOutputTests {
  /// One second of 440 Hz through the audio thread into ALSA's file plugin: the right header,
  /// every frame (no period lost or doubled), and 440 Hz by zero crossings.
  @Test func aToneBecomesAWAVWithEveryFrame() throws {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent(
      "\(UUID().uuidString).wav"
    ).path
    defer { unlink(path) }
    let format = AudioFormat(sampleRate: 48_000, channels: 2, periodFrames: 128)
    let output = try ALSAOutput(wavFile: path, format: format)
    #expect(output.format == format)
    let ring = SPSCRing<Float>(minimumCapacity: 16 * format.periodSamples)
    let engine = AudioEngine(output: output, sources: [ring])
    let periods = 375  // 1 s
    let producer = Thread {
      SineTone(frequency: 440, amplitude: 0.5, format: format).play(
        frames: periods * 128, into: ring)
    }
    producer.start()
    engine.start(periods: periods)
    engine.wait()
    output.close()
    #expect(
      engine.statistics == AudioEngine.Statistics(periods: periods, underruns: 0, starvedPeriods: 0)
    )

    let wav = try WAV(path: path)
    #expect(wav.channels == 2)
    #expect(wav.sampleRate == 48_000)
    #expect(wav.bitsPerSample == 16)
    #expect(wav.samples.count == periods * 128 * 2)
    let left = stride(from: 0, to: wav.samples.count, by: 2).map { wav.samples[$0] }
    let right = stride(from: 1, to: wav.samples.count, by: 2).map { wav.samples[$0] }
    #expect(left == right)
    // A rising zero crossing per cycle: 440 in one second (±1 for where the cycles fall).
    let rising = zip(left, left.dropFirst()).filter { $0 < 0 && $1 >= 0 }.count
    #expect(abs(rising - 440) <= 1, "\(rising) rising zero crossings")
    // No silent gap anywhere: every 128-frame period has signal.
    let quietPeriods = stride(from: 0, to: left.count, by: 128).filter { start in
      left[start..<min(left.count, start + 128)].allSatisfy { abs(Int($0)) < 1_000 }
    }
    #expect(quietPeriods.isEmpty)
    // Amplitude 0.5 of full scale.
    #expect(abs(Int(left.max() ?? 0) - 16_383) < 200)
  }

  @Test func badDevicesAndPathsAreOneLineErrors() {
    #expect(throws: AudioError.self) { try ALSAOutput(device: "hw:9", format: AudioFormat()) }
    do {
      _ = try ALSAOutput(device: "no-such-pcm", format: AudioFormat())
    } catch {
      #expect(error.description.hasPrefix("ALSA device 'no-such-pcm': "))
      #expect(error.description.hasSuffix("or use --device null (no sound card needed)."))
    }
    do {
      _ = try ALSAOutput(wavFile: "/nonexistent-folder/out.wav", format: AudioFormat())
      Issue.record("expected an error")
    } catch {
      #expect(error.description.contains("/nonexistent-folder/out.wav"))
    }
    #expect(throws: AudioError("--device file: needs a path: --device file:out.wav")) {
      _ = try AudioDevice.open("file:", format: AudioFormat())
    }
  }

  @Test func autoPicksThePacedNullDeviceWithoutACard() throws {
    let (output, note) = try AudioDevice.open(nil, format: AudioFormat())
    if ALSAOutput.hasSoundCard {
      #expect(output is ALSAOutput)
    } else {
      #expect(output is PacedNullOutput)
      #expect(note == "no sound card (/proc/asound/cards lists none): using the paced null device")
    }
  }
}
