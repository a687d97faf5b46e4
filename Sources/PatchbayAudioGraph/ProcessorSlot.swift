import CPatchbayCrash
import CPatchbaySampleChecks
import Foundation
import PatchbayABI
import PatchbayConfig
import PatchbayHost
import PatchbayLoader
import PatchbayRealtime
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
  let inserts: Bool  // it works on the mix the others made (an effect): it plays after them
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
  /// Where its MIDI goes (`pb_process.midi_out`); nil when it declared none.
  let midiOutput: UnsafeMutablePointer<pb_midi_output>?
  /// The graph's buffer for the MIDI processors send; set by the graph before the slot plays.
  unowned(unsafe) var sentMIDI: SentMIDI?
  /// What a crash in `process` names: the feature and its file, the instance, the call.
  let crashContext: UnsafeMutablePointer<pb_crash_context>
  /// The crash context's note, with the count of host calls `process` made beside it (a host
  /// function counts them there; the app queue takes them).
  let note: UnsafeMutablePointer<pb_processor_note>
  /// Whether the app said so already (once a processor). [app queue]
  var misuseReported = false
  /// Where it renders when it is not heard (another node is soloed), instead of the mix; set
  /// before the slot plays.
  var unheard: UnsafeMutablePointer<Float>?
  /// The instance's path, for meters, and to make its processor again. [app queue]
  var (path, instancePath): (String, InstancePath?) = ("", nil)
  /// The largest sample it added to the mix since the last take (while the tap is on).
  private let peakBits = Atomic<UInt32>(0)
  /// The handle whose instance this plays. [app queue]
  weak var handle: FeatureHandle?
  /// The steady frame + 1 of the period in which the processor wrote a NaN or an infinite
  /// sample; 0 while it has not, or once it was reported. From then on it is muted: not
  /// called again. [written by the audio thread, once; taken by the app queue]
  let fault = Atomic<UInt64>(0)
  // Audio thread only:
  var pushed: UInt32 = 0
  var sent: UInt32 = 0
  var lastSentFrame: UInt32 = 0
  var frameCount: UInt32 = 0
  var periodStart: UInt64 = 0
  var muted = false

  static let midiCapacity = 256

  init(
    featureID: String, processor: UnsafeMutableRawPointer, descriptor: pb_processor_desc,
    instance: any PluginInstance, context: HostContext, dropped: DropCounter,
    inserts: Bool = false,
    crashLabels: (feature: UnsafePointer<CChar>, instance: UnsafePointer<CChar>?)? = nil
  ) {
    (self.dropped, self.inserts) = (dropped, inserts)
    (self.featureID, self.processor) = (featureID, processor)
    (self.descriptor, self.instance, self.context) = (descriptor, instance, context)
    self.parameters =
      descriptor.parameter_size > 0 ? TripleBuffer(byteCount: Int(descriptor.parameter_size)) : nil
    // Room for a second of periods' events before the app queue drains them.
    self.events = SPSCRing(minimumCapacity: max(64, Int(descriptor.max_output_events) * 512))
    self.midi = .allocate(capacity: Self.midiCapacity)
    self.process = .allocate(capacity: 1)
    self.process.initialize(to: pb_process())
    self.output = .allocate(capacity: 1)
    self.output.initialize(to: pb_event_output(context: nil, push: ProcessorSlot.push))
    self.note = .allocate(capacity: 1)
    self.note.initialize(
      to: pb_processor_note(
        crash: pb_crash_context(
          feature: crashLabels?.feature ?? Self.cString("a processor"),
          instance: crashLabels?.instance, call: pb_process_call, action: nil),
        misuse: pb_audio_misuse(count: 0, first: nil)))
    self.crashContext = UnsafeMutableRawPointer(self.note).assumingMemoryBound(
      to: pb_crash_context.self)
    self.midiOutput =
      descriptor.max_midi_output > 0
      ? UnsafeMutablePointer<pb_midi_output>.allocate(capacity: 1) : nil
    self.heldNotes =
      descriptor.max_midi_output > 0 ? UnsafeMutablePointer<UInt64>.allocate(capacity: 32) : nil
    self.heldNotes?.initialize(repeating: 0, count: 32)
    self.output.pointee.context = Unmanaged.passUnretained(self).toOpaque()
    self.midiOutput?.initialize(
      to: pb_midi_output(
        context: Unmanaged.passUnretained(self).toOpaque(), push: ProcessorSlot.sendMIDI))
  }

  /// The notes its MIDI holds down now, a bit per note and channel (16 × 128 bits), so that
  /// taken out it leaves none hanging; nil when it sends none. [audio-thread]
  let heldNotes: UnsafeMutablePointer<UInt64>?

  /// Set once the audio thread has sent the note-offs of a processor taken out.
  let notesReleased = Atomic<Bool>(false)

  /// Sends note-offs for every note its MIDI still holds, at the period's first frame.
  /// [audio-thread]
  func releaseHeldNotes(into sink: SentMIDI) {
    defer { self.notesReleased.store(true, ordering: .releasing) }
    guard let held = self.heldNotes else { return }
    for word in 0..<32 where held[word] != 0 {
      var bits = held[word]
      while bits != 0 {
        let bit = bits.trailingZeroBitCount
        bits &= bits - 1
        let (channel, note) = (word / 2, (word % 2) * 64 + bit)
        _ = sink.append(
          pb_midi_event(frame: 0, size: 3, bytes: (0x80 | UInt8(channel), UInt8(note), 0)))
      }
      held[word] = 0
    }
  }

  /// Notes a sent message down or up. [audio-thread]
  func track(_ event: pb_midi_event) {
    guard let held = self.heldNotes, event.size == 3 else { return }
    let kind = event.bytes.0 & 0xF0
    guard kind == 0x90 || kind == 0x80 else { return }
    let word = Int(event.bytes.0 & 0x0F) * 2 + Int(event.bytes.1 >> 6)
    let bit = UInt64(1) << UInt64(event.bytes.1 & 63)
    if kind == 0x90 && event.bytes.2 > 0 { held[word] |= bit } else { held[word] &= ~bit }
  }

  /// Whether it sends MIDI to the processors after it: the graph plays it first.
  var sendsMIDI: Bool { self.midiOutput != nil }

  /// A static string's bytes, which live as long as the program.
  private static func cString(_ text: StaticString) -> UnsafePointer<CChar> {
    UnsafeRawPointer(text.utf8Start).assumingMemoryBound(to: CChar.self)
  }

  deinit {
    self.midi.deallocate()
    self.process.deallocate()
    self.output.deallocate()
    self.midiOutput?.deallocate()
    self.heldNotes?.deallocate()
    self.unheard?.deallocate()
    self.note.deallocate()
  }

  /// Keeps the larger of `peak` and the peak so far. [audio-thread]
  func notePeak(_ peak: Float) {
    if peak > Float(bitPattern: self.peakBits.load(ordering: .relaxed)) {
      self.peakBits.store(peak.bitPattern, ordering: .relaxed)
    }
  }

  /// The peak since the last take, and starts again. [app queue]
  func takePeak() -> Float { Float(bitPattern: self.peakBits.exchange(0, ordering: .relaxed)) }

  /// Publishes the parameters for the instance's state now. [app queue]
  func publishParameters() {
    guard let parameters else { return }
    parameters.write { self.instance.writeParameters($0) }
  }

  /// Renders one period into `mix`, with the period's MIDI. The call is noted for crash
  /// reports and the watchdog, checks or not; with `checkSamples` (the graph found NaN in a
  /// recent mix), what it
  /// wrote is checked too: `mix` was finite before the call, so a NaN or an infinite sample
  /// after it is this processor's. Those samples are set to 0 (never mixed), the processor is
  /// muted from then on, with `faultFrame` as the period to report, and this returns true.
  /// [audio-thread]
  @inline(__always)
  func render(
    into mix: UnsafeMutablePointer<Float>, frames: Int, channels: Int, sampleRate: Int,
    steadyTime: UInt64, midi: UnsafePointer<pb_midi_event>, midiCount: Int,
    checkSamples: Bool = false, faultFrame: UInt64 = 0
  ) -> Bool {
    guard !self.muted else { return false }
    let mix = self.unheard ?? mix
    if self.unheard != nil { mix.update(repeating: 0, count: frames * channels) }
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
    self.sent = 0
    self.lastSentFrame = 0
    self.frameCount = UInt32(frames)
    self.periodStart = steadyTime
    self.process.pointee = pb_process(
      struct_size: UInt32(MemoryLayout<pb_process>.size), frame_count: UInt32(frames),
      sample_rate: UInt32(sampleRate), channel_count: UInt32(channels), steady_time: steadyTime,
      output: mix, parameters: self.parameters?.read(), midi: events,
      midi_count: UInt32(eventCount), events: UnsafePointer(self.output),
      midi_out: self.midiOutput.map { UnsafePointer($0) })
    // Two stores around the call: a crash or a hang inside it names the processor
    // (CPatchbayCrash).
    pb_crash_note(self.crashContext)
    self.descriptor.process?(self.processor, self.process)
    pb_crash_note(nil)
    let samples = frames * channels
    guard checkSamples, pb_samples_any_nonfinite(mix, samples) else { return false }
    pb_samples_silence_nonfinite(mix, samples)
    self.muted = true
    self.fault.store(faultFrame + 1, ordering: .releasing)
    return true
  }

  /// How many host calls `process` made since the last take, and the first one's name
  /// (`host->send`). [app queue]
  func takeMisuse() -> (count: Int, first: String)? {
    var first: UnsafePointer<CChar>?
    let count = pb_audio_misuse_take(&self.note.pointee.misuse, &first)
    guard count > 0 else { return nil }
    return (Int(count), first.map { String(cString: $0) } ?? "a host function")
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

extension ProcessorSlot {
  /// `pb_process.midi_out->push`: into the graph's buffer for the processors after this one,
  /// within the period's room, in frame order. [audio-thread]
  static let sendMIDI:
    @convention(c) (UnsafePointer<pb_midi_output>?, UnsafePointer<pb_midi_event>?) -> Bool = {
      output, event in
      guard let context = output?.pointee.context, let event else { return false }
      let slot = Unmanaged<ProcessorSlot>.fromOpaque(context).takeUnretainedValue()
      let frame = event.pointee.frame
      guard slot.sent < slot.descriptor.max_midi_output, frame >= slot.lastSentFrame,
        frame < slot.frameCount, (1...3).contains(event.pointee.size),
        let sink = slot.sentMIDI, sink.append(event.pointee)
      else {
        slot.dropped.count.add(1, ordering: .relaxed)
        return false
      }
      slot.sent += 1
      slot.lastSentFrame = frame
      slot.track(event.pointee)
      return true
    }
}

/// Counts events processors pushed that were dropped. [thread-safe]
final class DropCounter: Sendable {
  let count = Atomic<Int>(0)
}
