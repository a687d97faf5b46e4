import Foundation
import PatchbayLV2
import Testing

/// Real plugins run by the host: x42's parametric EQ (fil4) and compressor (darc).
struct LV2InstanceTests {
  static let eq = "http://gareus.org/oss/lv2/fil4#mono"
  static let compressor = "http://gareus.org/oss/lv2/darc#mono"

  /// One second of a 1 kHz sine at `level` through `instance`, 128 frames a block; the
  /// output's RMS over its last tenth.
  static func play(_ instance: LV2Instance, level: Float = 0.5) -> (rms: Float, output: [Float]) {
    var output: [Float] = []
    var frame = 0
    for _ in 0..<375 {
      for index in 0..<128 {
        instance.audioInputs[0][index] =
          level * sinf(2 * .pi * 1_000 * Float(frame + index) / 48_000)
      }
      instance.run(frames: 128)
      output.append(contentsOf: UnsafeBufferPointer(start: instance.audioOutputs[0], count: 128))
      frame += 128
    }
    let tail = output.suffix(4_800)
    return ((tail.map { $0 * $0 }.reduce(0, +) / Float(tail.count)).squareRoot(), output)
  }

  @Test func theEQsGainChangesTheSoundBySixDecibels() throws {
    let info = try LV2World.shared.plugin(uri: Self.eq)
    let flat = try LV2Instance(info, sampleRate: 48_000, maximumFrames: 128)
    let quieter = try LV2Instance(info, sampleRate: 48_000, maximumFrames: 128)
    #expect(try quieter.set("gain", to: -6) == -6)
    #expect(quieter["gain"] == -6)
    let (loud, _) = Self.play(flat)
    let (soft, _) = Self.play(quieter)
    // A 0.5 sine's RMS is 0.354: the flat EQ passes it, −6 dB halves it.
    #expect(abs(loud - 0.3536) < 0.01, "flat: \(loud)")
    #expect(abs(soft / loud - 0.5012) < 0.01, "−6 dB: \(soft / loud)")
  }

  @Test func twoRendersAreByteIdentical() throws {
    let info = try LV2World.shared.plugin(uri: Self.compressor)
    var outputs: [[Float]] = []
    for _ in 0..<2 {
      let instance = try LV2Instance(info, sampleRate: 48_000, maximumFrames: 128)
      try instance.set("threshold", to: -20)
      try instance.set("Ratio", to: 1)
      outputs.append(Self.play(instance, level: 0.9).output)
    }
    #expect(outputs[0].count == 48_000)
    #expect(outputs[0].withUnsafeBytes { Data($0) } == outputs[1].withUnsafeBytes { Data($0) })
    #expect(outputs[0].contains { $0 != 0 })
  }

  /// Two sines 20 dB apart come out 20 dB apart with the compressor's ratio at 0 (its
  /// default: off), and much closer with it at 1: what a compressor does, measured.
  @Test func theCompressorsRatioNarrowsTheRange() throws {
    let info = try LV2World.shared.plugin(uri: Self.compressor)
    func spread(ratio: Float) throws -> Float {
      let levels = try [Float(0.9), 0.09].map { level in
        let instance = try LV2Instance(info, sampleRate: 48_000, maximumFrames: 128)
        try instance.set("threshold", to: -40)
        try instance.set("Ratio", to: ratio)
        return Self.play(instance, level: level).rms
      }
      return 20 * log10f(levels[0] / levels[1])
    }
    let (off, on) = (try spread(ratio: 0), try spread(ratio: 1))
    #expect(abs(off - 20) < 0.5, "ratio 0: \(off) dB apart")
    #expect(on < 12, "ratio 1: \(on) dB apart")
  }

  @Test func badControlsAreOneLineNamingTheControls() throws {
    let instance = try LV2Instance(
      LV2World.shared.plugin(uri: Self.eq), sampleRate: 48_000, maximumFrames: 128)
    #expect {
      try instance.set("volume", to: 1)
    } throws: {
      let line = "\($0)"
      return line.hasPrefix("<\(Self.eq)> has no control input 'volume': its controls are ")
        && line.contains("gain") && !line.contains("\n")
    }
    #expect(throws: LV2Error("gain: nan is not a number a control can take")) {
      try instance.set("gain", to: .nan)
    }
    // Out of range: clamped to the port's bounds.
    #expect(try instance.set("gain", to: 100) == 18)
  }
}

/// A plugin whose library does not load: one line naming the file and the loader's reason
/// (lilv itself says it only on standard error).
struct LV2LibraryTests {
  @Test func aLibraryThatDoesNotLoadIsNamed() throws {
    let bundle = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent("Fixtures/broken.lv2").path
    LV2World.shared.loadBundle(bundle)
    let broken = try LV2World.shared.plugin(uri: "urn:patchbay:test:broken")
    #expect(broken.libraryPath == bundle + "/broken.so")
    #expect {
      _ = try LV2Instance(broken, sampleRate: 48_000, maximumFrames: 128)
    } throws: {
      // The rest is the loader's own words ("file too short" here).
      "\($0)".hasPrefix(
        "<urn:patchbay:test:broken> would not instantiate at 48000 Hz: its library does not "
          + "load: \(bundle)/broken.so: ") && !"\($0)".contains("\n")
    }
  }
}

/// Instances made and freed on several threads at once: the plugin's library stays loaded while
/// any instance lives and is unloaded with the last. (lilv counts a library's instances with no
/// lock of its own; freed outside the world's lock, a count was lost now and then and the
/// library unloaded under a running instance.)
struct LV2InstanceLifetimeTests {
  /// x42's stereo balance: no other test loads its library, so its unloading can be seen.
  static let balance = "http://gareus.org/oss/lv2/balance"

  static func isLoaded(_ path: String) -> Bool {
    guard let handle = dlopen(path, RTLD_NOW | RTLD_NOLOAD) else { return false }
    dlclose(handle)
    return true
  }

  @Test func aLibraryStaysLoadedWhileAnyInstanceLives() throws {
    let info = try LV2World.shared.plugin(uri: Self.balance)
    let path = try #require(info.libraryPath)
    var kept: LV2Instance? = try LV2Instance(info, sampleRate: 48_000, maximumFrames: 128)
    let done = DispatchGroup()
    for _ in 0..<2 {
      done.enter()
      Thread {
        for _ in 0..<3_000 { _ = try? LV2Instance(info, sampleRate: 48_000, maximumFrames: 128) }
        done.leave()
      }.start()
    }
    done.wait()
    let loaded = Self.isLoaded(path)
    #expect(loaded, "\(path) was unloaded while an instance of it lived")
    guard loaded else {
      _ = Unmanaged.passRetained(kept!)  // freeing it now would run code that is gone
      return
    }
    kept?.run(frames: 128)
    kept = nil
    #expect(!Self.isLoaded(path), "\(path) is still loaded after its last instance went")
  }
}
