import Foundation
import PatchbayAudioDevice
import PatchbayAudioGraph
import PatchbayConfig
import PatchbayEncoding
import PatchbayHost
import PatchbayMIDI
import Testing

/// The app of `host-config/NAME.toml`, with the plugins `swift build` made.
func makeApp(_ configName: String) throws -> AppRuntime {
  let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
  let config = try AppConfig(
    contentsOf: root.appendingPathComponent("host-config/\(configName).toml").path)
  let loader = config.loader(firstSearchPaths: [BuiltPlugins.directory])
  return try AppRuntime(
    config: config, registry: try config.loadPlugins(with: loader), loader: loader)
}

/// An app from config text, its plugins from the build's folder.
func makeApp(toml text: String, file: String = "test.toml") throws -> AppRuntime {
  let config = try AppConfig(parsing: text, file: file)
  let loader = config.loader(firstSearchPaths: [BuiltPlugins.directory])
  return try AppRuntime(
    config: config, registry: try config.loadPlugins(with: loader), loader: loader)
}

func temporaryFile(_ name: String) -> String {
  FileManager.default.temporaryDirectory.appendingPathComponent("\(UUID().uuidString)-\(name)")
    .path
}

@Suite struct OfflineRenderTests {
  static let format = AudioFormat(sampleRate: 48_000, channels: 2, periodFrames: 128)

  /// 10 s at 120 BPM: a click starts on every 24,000th frame exactly, beat 1 of each bar
  /// higher, and every beat reaches the reducer, in order.
  @Test func metronomeClicksAtExactFramesAndTellsTheReducer() throws {
    let app = try makeApp("metronome")
    let samples = try Self.render(app, frames: 480_000, after: ["start"])
    #expect(samples.count == 480_000 * 2)
    let left = stride(from: 0, to: samples.count, by: 2).map { samples[$0] }
    // Onsets: a sound after at least 10 ms of silence.
    var onsets: [Int] = []
    var silent = 480
    for (frame, sample) in left.enumerated() {
      if sample != 0 {
        if silent >= 480 { onsets.append(frame) }
        silent = 0
      } else {
        silent += 1
      }
    }
    #expect(onsets == (0..<20).map { $0 * 24_000 })
    // Pitch: zero crossings in a click's first 20 ms (960 frames): 1,500 Hz gives 60, 1,000 Hz 40.
    func crossings(at onset: Int) -> Int {
      zip(left[onset..<onset + 960], left[onset + 1..<onset + 961]).filter {
        ($0 < 0) != ($1 < 0)
      }.count
    }
    #expect(abs(crossings(at: 0) - 60) <= 1)  // beat 1: accented
    #expect(abs(crossings(at: 24_000) - 40) <= 1)
    #expect(abs(crossings(at: 96_000) - 60) <= 1)  // beat 1 of bar 2
    #expect(try app.state("metronome")[field: "beatsPlayed"] == 20)
    #expect(try app.state("metronome")[field: "lastBeat"] == 19)
  }

  /// A Swift feature hears MIDI: the Metronome starts and stops on MIDI start and stop.
  @Test func theMetronomeHearsMIDIStartAndStop() throws {
    let app = try makeApp("metronome")
    app.receive(MIDIEvent(.start))
    app.perform {}
    #expect(try app.state("metronome")[field: "running"] == true)
    app.receive(MIDIEvent(.noteOn, channel: 3, 60, 100))  // heard, changes nothing
    app.receive(MIDIEvent(.stop))
    app.perform {}
    #expect(try app.state("metronome")[field: "running"] == false)
    #expect(try app.instance("metronome").failures.isEmpty)
  }

  @Test func twoRendersAreByteIdentical() throws {
    var files: [Data] = []
    for _ in 0..<2 {
      let app = try makeApp("metronome")
      files.append(
        try Self.renderFile(app, frames: 96_000, after: ["setTempo(bpm: 137.0)", "start"]))
    }
    #expect(files[0].count == 44 + 96_000 * 4)
    let same = files[0] == files[1]  // not #expect's ==: it would diff them byte by byte
    #expect(same, "two renders differ (\(files[0].count) and \(files[1].count) bytes)")
  }

  /// The WAV bytes of `frames` frames of `app`, after sending `actions` to its root.
  static func renderFile(_ app: AppRuntime, frames: Int, after actions: [String]) throws -> Data {
    let render = try OfflineRender(app: app, format: Self.format)
    for action in actions { try app.send(app.config.root, action) }
    let file = temporaryFile("render.wav")
    defer { try? FileManager.default.removeItem(atPath: file) }
    let wav = try WAVFileOutput(path: file, format: Self.format)
    render.run(frames: frames, into: wav)
    wav.close()
    return try Data(contentsOf: URL(fileURLWithPath: file))
  }

  /// ``renderFile(_:frames:after:)``'s 16-bit samples, interleaved.
  static func render(_ app: AppRuntime, frames: Int, after actions: [String]) throws -> [Int16] {
    try renderFile(app, frames: frames, after: actions).dropFirst(44).withUnsafeBytes {
      Array($0.bindMemory(to: Int16.self))
    }
  }
}
