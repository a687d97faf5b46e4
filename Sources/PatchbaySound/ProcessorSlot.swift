import Foundation
import PatchbayABI
import PatchbayCrash
import PatchbayHost
import PatchbayLoader
import PatchbayRealtime
import SampleChecks
import Synchronization

/// One live processor as the audio thread sees it: the plugin's processor, its parameter
/// block, the buffers a period fills, and the ring its events go back through. Everything the
/// audio thread touches is allocated here, on the app queue.
///
/// `@unchecked Sendable`: the audio thread and the app queue share it, each touching only
/// what is marked for it; what they both touch is atomic or a lock-free ring.
final class ProcessorSlot: @unchecked Sendable {
  let featureID: String
  let processor: UnsafeMutableRawPointer
  /// `process` and `destroy` are called through it (C calls: the audio thread).
  let descriptor: pb_processor_desc
  /// The plugin's instance (for `write_parameters` and `event_action`). [app queue]
  let instance: any PluginInstance
  /// The instance's host context: which MIDI channels it listens to.
  let context: HostContext
  /// reducer → processor.
  let parameters: TripleBuffer?
  /// processor → reducer. [producer: the audio thread; consumer: the app queue]
  let events: SPSCRing<pb_processor_event>
  /// Events refused because a period's room was used up, or the ring was full: the graph's
  /// count.
  let dropped: DropCounter
  /// The period's MIDI for this processor, when it listens to some channels only.
  let midi: UnsafeMutablePointer<pb_midi_event>
  let process: UnsafeMutablePointer<pb_process>
  let output: UnsafeMutablePointer<pb_event_output>
  /// What a crash in `process` names: the feature and its file, the instance, the call.
  let crashContext: UnsafeMutablePointer<pb_crash_context>
  /// The handle whose instance this plays. [app queue]
  weak var handle: FeatureHandle?
  /// The steady frame + 1 of the period in which the processor wrote a NaN or an infinite
  /// sample; 0 while it has not, or once it was reported. From then on it is muted: not
  /// called again. [written by the audio thread, once; taken by the app queue]
  let fault = Atomic<UInt64>(0)
  // Audio thread only:
  var pushed: UInt32 = 0
  var periodStart: UInt64 = 0
  var muted = false

  static let midiCapacity = 256

  init(
    featureID: String, processor: UnsafeMutableRawPointer, descriptor: pb_processor_desc,
    instance: any PluginInstance, context: HostContext, dropped: DropCounter,
    crashLabels: (feature: UnsafePointer<CChar>, instance: UnsafePointer<CChar>?)? = nil
  ) {
    self.dropped = dropped
    self.featureID = featureID
    self.processor = processor
    self.descriptor = descriptor
    self.instance = instance
    self.context = context
    self.parameters =
      descriptor.parameter_size > 0 ? TripleBuffer(byteCount: Int(descriptor.parameter_size)) : nil
    // Room for a second of periods' events before the app queue drains them.
    self.events = SPSCRing(minimumCapacity: max(64, Int(descriptor.max_output_events) * 512))
    self.midi = .allocate(capacity: Self.midiCapacity)
    self.process = .allocate(capacity: 1)
    self.process.initialize(to: pb_process())
    self.output = .allocate(capacity: 1)
    self.output.initialize(to: pb_event_output(context: nil, push: ProcessorSlot.push))
    self.crashContext = .allocate(capacity: 1)
    self.crashContext.initialize(
      to: pb_crash_context(
        feature: crashLabels?.feature ?? Self.cString("a processor"),
        instance: crashLabels?.instance, call: Self.cString("process"), action: nil))
    self.output.pointee.context = Unmanaged.passUnretained(self).toOpaque()
  }

  /// A static string's bytes, which live as long as the program.
  private static func cString(_ text: StaticString) -> UnsafePointer<CChar> {
    UnsafeRawPointer(text.utf8Start).assumingMemoryBound(to: CChar.self)
  }

  deinit {
    self.midi.deallocate()
    self.process.deallocate()
    self.output.deallocate()
    self.crashContext.deallocate()
  }

  /// Publishes the parameters for the instance's state now. [app queue]
  func publishParameters() {
    guard let parameters else { return }
    parameters.write { self.instance.writeParameters($0) }
  }

  /// Renders one period into `mix`, with the period's MIDI. With `checks`, the call is noted
  /// for crash reports; with `checkSamples` (the graph found NaN in a recent mix), what it
  /// wrote is checked too: `mix` was finite before the call, so a NaN or an infinite sample
  /// after it is this processor's. Those samples are set to 0 (never mixed), the processor is
  /// muted from then on, with `faultFrame` as the period to report, and this returns true.
  /// [audio-thread]
  @inline(__always)
  func render(
    into mix: UnsafeMutablePointer<Float>, frames: Int, channels: Int, sampleRate: Int,
    steadyTime: UInt64, midi: UnsafePointer<pb_midi_event>, midiCount: Int, checks: Bool = true,
    checkSamples: Bool = false, faultFrame: UInt64 = 0
  ) -> Bool {
    guard !self.muted else { return false }
    let listening = self.context.midiChannels.load(ordering: .relaxed)
    var events: UnsafePointer<pb_midi_event>? = nil
    var eventCount = 0
    if listening == UInt16(PB_MIDI_ALL_CHANNELS) {
      (events, eventCount) = (midiCount > 0 ? midi : nil, midiCount)
    } else if listening != 0 {
      for index in 0..<midiCount where eventCount < Self.midiCapacity {
        let status = midi[index].bytes.0
        let channelBit: UInt16 = status < 0xF0 ? 1 << UInt16(status & 0x0F) : 0xFFFF
        if listening & channelBit != 0 {
          self.midi[eventCount] = midi[index]
          eventCount += 1
        }
      }
      events = eventCount > 0 ? UnsafePointer(self.midi) : nil
    }
    self.pushed = 0
    self.periodStart = steadyTime
    self.process.pointee = pb_process(
      struct_size: UInt32(MemoryLayout<pb_process>.size), frame_count: UInt32(frames),
      sample_rate: UInt32(sampleRate), channel_count: UInt32(channels), steady_time: steadyTime,
      output: mix, parameters: self.parameters?.read(), midi: events,
      midi_count: UInt32(eventCount), events: UnsafePointer(self.output))
    // Two stores around the call: a crash inside it names the processor (PatchbayCrash).
    if checks { pb_crash_note(self.crashContext) }
    self.descriptor.process?(self.processor, self.process)
    if checks { pb_crash_note(nil) }
    let samples = frames * channels
    guard checkSamples, pb_samples_any_nonfinite(mix, samples) else { return false }
    pb_samples_silence_nonfinite(mix, samples)
    self.muted = true
    self.fault.store(faultFrame + 1, ordering: .releasing)
    return true
  }

  /// The steady frame of the period in which the processor was muted, the first time the app
  /// queue asks. [app queue]
  func takeFault() -> UInt64? {
    let fault = self.fault.exchange(0, ordering: .acquiring)
    return fault == 0 ? nil : fault - 1
  }

  /// `pb_process.events->push`. [audio-thread]
  static let push:
    @convention(c) (UnsafePointer<pb_event_output>?, UnsafePointer<pb_processor_event>?) -> Bool =
      { output, event in
        guard let context = output?.pointee.context, let event else { return false }
        let slot = Unmanaged<ProcessorSlot>.fromOpaque(context).takeUnretainedValue()
        guard slot.pushed < slot.descriptor.max_output_events else {
          slot.dropped.count.add(1, ordering: .relaxed)
          return false
        }
        var copy = event.pointee
        copy.time = slot.periodStart + UInt64(copy.frame)
        guard slot.events.push(copy) else {
          slot.dropped.count.add(1, ordering: .relaxed)
          return false
        }
        slot.pushed += 1
        return true
      }
}

/// Counts events processors pushed that were dropped. [thread-safe]
final class DropCounter: Sendable {
  let count = Atomic<Int>(0)
}
