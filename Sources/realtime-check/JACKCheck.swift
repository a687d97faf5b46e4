import Foundation
import PatchbayAudioDevice
import PatchbayJACK
import PatchbayJACKProbe
import PatchbayMIDI
import RealtimeCheckSupport
import Synchronization

/// The JACK process callback: a private `jackd -d dummy` calls it `periods` times after
/// `warmUp`, and the allocations on its thread are counted in between.
enum JACKCheck {
  struct Result: CustomStringConvertible {
    let periods: Int
    let warmUp: Int
    let frames: Int
    let midiMessages: Int
    var description: String {
      "JACK process callback, \(self.periods) periods of \(self.frames) frames after "
        + "\(self.warmUp) of warm-up (a private jackd -d dummy), taking \(self.midiMessages) "
        + "MIDI messages from midi_in"
    }
  }

  static func run(periods: Int, warmUp: Int, frames: Int = 64) throws -> Result {
    let server = try PrivateJACKServer(frames: frames, rate: 48_000)
    defer { server.stop() }
    let renderer = Counting(from: warmUp, to: warmUp + periods)
    let output = try JACKOutput(
      clientName: "realtime-check", serverName: server.name, channels: 2, midiInput: true)
    defer { output.close() }
    try output.activate(rendering: renderer)
    // Another client plays notes into midi_in all along, so the callback copies messages.
    guard let keyboard = JACKProbe(server: server.name, name: "keyboard", captureFrames: 1),
      keyboard.connect("keyboard:midi_out", to: "realtime-check:midi_in")
    else { throw Failure("the JACK server refused a second client playing MIDI") }
    defer { keyboard.close() }
    let midi = MIDIInput(source: output.midiInput!)
    midi.start()
    let deadline = ContinuousClock.now.advanced(by: .seconds(120))
    var note: UInt8 = 0
    while renderer.calls.load(ordering: .acquiring) < warmUp + periods + 1 {
      keyboard.send([0x90, 40 + note % 40, 100])
      keyboard.send([0x80, 40 + note % 40, 0])
      note &+= 1
      while midi.events.pop() != nil {}
      guard ContinuousClock.now < deadline, !output.statistics.serverLost else {
        throw Failure(
          "the JACK server ran \(renderer.calls.load(ordering: .relaxed)) periods in 120 s")
      }
      usleep(10_000)
    }
    output.close()  // ends the MIDI reader's read
    midi.wait()
    return Result(
      periods: periods, warmUp: warmUp, frames: frames,
      midiMessages: output.midiInput!.received)
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
