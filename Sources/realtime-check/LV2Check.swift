import Foundation
import PatchbayLV2
import PatchbayLV2Fixtures
import RealtimeCheckSupport

/// LV2 plugins run by the host: x42's EQ (with its atom ports, which the host resets every
/// period) and compressor, and the worker fixture (Plugins/Fixtures/LV2Worker: its run
/// schedules work whenever its request changes, and the answers come back into it) and the tone
/// fixture (an instrument: MIDI through its atom input), `periods` 128-frame blocks each after
/// `warmUp`, the EQ's gain and the fixture's request moved and a note played every 100 periods,
/// allocations on this thread counted in between.
enum LV2Check {
  static let plugins = [
    "http://gareus.org/oss/lv2/fil4#mono", "http://gareus.org/oss/lv2/darc#stereo",
  ]

  struct Result: CustomStringConvertible {
    let periods: Int
    let names: [String]
    var description: String {
      "LV2 plugins run by the host (\(self.names.joined(separator: ", "))), \(self.periods) "
        + "periods of 128 frames each, a control moved, work scheduled and a note played every "
        + "100"
    }
  }

  static func run(periods: Int, warmUp: Int) throws -> Result {
    try LV2Fixtures.loadWorker()
    let instances = try (plugins + ["urn:patchbay:test:worker", "urn:patchbay:test:tone"]).map {
      try LV2Instance(LV2World.shared.plugin(uri: $0), sampleRate: 48_000, maximumFrames: 128)
    }
    for instance in instances {
      for input in instance.audioInputs {
        for frame in 0..<128 { input[frame] = sinf(Float(frame) / 8) * 0.5 }
      }
    }
    // The EQ's gain, by port index, as the host's control changes reach a plugin.
    let gain = instances[0].port("gain")!.index
    let gains: [Float] = [-6, 0, 6]
    let (first, second, worker, tone) = (instances[0], instances[1], instances[2], instances[3])
    // A note on and off in turn, from a tuple (an array literal would allocate).
    var note: (UInt8, UInt8, UInt8) = (0x90, 60, 100)
    let request = worker.port("request")!.index
    var period = 0
    while period < warmUp + periods {
      if period == warmUp { AllocationCounter.watch(currentThread: true) }
      if period % 100 == 0 {
        first.controls[gain] = gains[(period / 100) % 3]
        worker.controls[request] = Float((period / 100) % 50)
        note.0 = (period / 100) % 2 == 0 ? 0x90 : 0x80
        _ = withUnsafeBytes(of: &note) { tone.queueMIDI($0, at: 17) }
      }
      first.run(frames: 128)
      second.run(frames: 128)
      worker.run(frames: 128)
      tone.run(frames: 128)
      period += 1
    }
    AllocationCounter.watch(currentThread: false)
    // The last answer may still be on its way: a few more periods, uncounted.
    let deadline = ContinuousClock.now.advanced(by: .seconds(60))
    while worker["answer"] != 2 * worker.controls[request], ContinuousClock.now < deadline {
      worker.run(frames: 128)
      usleep(1_000)
    }
    guard worker["answer"] == 2 * worker.controls[request] else {
      throw LV2CheckFailure("the worker fixture's answers did not come back")
    }
    return Result(periods: periods, names: instances.map(\.info.name))
  }

  struct LV2CheckFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
  }
}
