import Foundation
import PatchbayAudioDevice
import PatchbayJACK
import RealtimeCheckSupport
import Synchronization

/// The JACK process callback: a private `jackd -d dummy` calls it `periods` times after
/// `warmUp`, and the allocations on its thread are counted in between.
enum JACKCheck {
  struct Result: CustomStringConvertible {
    let periods: Int
    let warmUp: Int
    let frames: Int
    var description: String {
      "JACK process callback, \(self.periods) periods of \(self.frames) frames after "
        + "\(self.warmUp) of warm-up (a private jackd -d dummy)"
    }
  }

  static func run(periods: Int, warmUp: Int, frames: Int = 64) throws -> Result {
    let server = try PrivateJACKServer(frames: frames, rate: 48_000)
    defer { server.stop() }
    let renderer = Counting(from: warmUp, to: warmUp + periods)
    let output = try JACKOutput(
      clientName: "realtime-check", serverName: server.name, channels: 2)
    defer { output.close() }
    try output.activate(rendering: renderer)
    let deadline = ContinuousClock.now.advanced(by: .seconds(120))
    while renderer.calls.load(ordering: .acquiring) < warmUp + periods + 1 {
      guard ContinuousClock.now < deadline, !output.statistics.serverLost else {
        throw Failure(
          "the JACK server ran \(renderer.calls.load(ordering: .relaxed)) periods in 120 s")
      }
      usleep(10_000)
    }
    return Result(periods: periods, warmUp: warmUp, frames: frames)
  }

  /// Writes a tone, and watches its own thread's allocations from period `from` to `to`.
  private final class Counting: AudioRenderer, @unchecked Sendable {
    let calls = Atomic<Int>(0)
    let from: Int
    let to: Int
    private var phase: Float = 0

    init(from: Int, to: Int) { (self.from, self.to) = (from, to) }

    func render(into mix: UnsafeMutablePointer<Float>, frames: Int, steadyTime: UInt64) {
      let call = self.calls.load(ordering: .relaxed)
      if call == self.from { AllocationCounter.watch(currentThread: true) }
      if call == self.to { AllocationCounter.watch(currentThread: false) }
      for frame in 0..<frames {
        let sample = sinf(self.phase) * 0.25
        (mix[frame * 2], mix[frame * 2 + 1]) = (sample, sample)
        self.phase += 2 * .pi * 440 / 48_000
        if self.phase > 2 * .pi { self.phase -= 2 * .pi }
      }
      self.calls.store(call + 1, ordering: .releasing)
    }
  }

  struct Failure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
  }
}
