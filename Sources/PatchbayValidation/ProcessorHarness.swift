import CPatchbayCrash
import CPatchbayGuardedBlock
import Foundation
import PatchbayABI
import PatchbayHost
import PatchbayLoader

/// A feature's processor driven by hand, as the audio graph drives it but with nothing of the
/// host's around the call: `process` runs on an audio thread of the harness's own; every
/// other call (actions, `write_parameters`, render, `create` and `destroy`) on the thread
/// that uses the harness, as the header annotations say. The parameter block is a guarded
/// block, lent out only during `write_parameters` (writable) and `process` (read-only): a
/// plugin that touches it at any other time, or writes it in `process`, ends the process
/// with a line that says so.
///
/// ```swift
/// let harness = try ProcessorHarness(feature, context, sampleRate: 48_000, channels: 2)
/// harness.period(frames: 256, midi: [noteOn])   // on the audio thread; returns when done
/// try harness.send("play")                       // reduce, then write_parameters, here
/// harness.close()
/// ```
final class ProcessorHarness: @unchecked Sendable {
  static let maxFrames = 4_096
  static let midiCapacity = 64
  /// What the fault line calls the block (a C string that lives as long as the process).
  private static let blockName: StaticString = "the parameter block"

  let feature: LoadedFeature
  let handle: FeatureHandle
  let descriptor: pb_processor_desc
  let channels: Int
  let sampleRate: Int
  /// `maxFrames × channels` samples: what the last period left.
  let output: UnsafeMutablePointer<Float>
  private let processor: UnsafeMutableRawPointer
  private let block: UnsafeMutableRawPointer?
  private let midi: UnsafeMutablePointer<pb_midi_event>
  private let call: UnsafeMutablePointer<pb_process>
  private let events: UnsafeMutablePointer<pb_event_output>
  private let midiOut: UnsafeMutablePointer<pb_midi_output>
  /// Events and MIDI the processor pushed in the last period (the push functions count).
  private let pushes: UnsafeMutablePointer<Int>
  /// What a crash inside `process` is reported as (the feature and its file, "process"), with
  /// the count of host calls it made beside it.
  private let note: UnsafeMutablePointer<pb_processor_note>
  /// Counts around each `process` call, on the audio thread (the realtime probe's).
  private let watch: (@Sendable (Bool) -> Void)?

  // The period the audio thread renders next; set before `request` is signalled.
  private var frames = 0
  private var midiCount = 0
  private var steadyTime: UInt64 = 0
  private var fill: Float = 0
  private var duration: UInt64 = 0
  private var stopping = false
  private let request = DispatchSemaphore(value: 0)
  private let done = DispatchSemaphore(value: 0)

  /// Creates an instance of `feature` and its processor for `sampleRate` and `channels`.
  init(
    _ feature: LoadedFeature, _ context: ValidationContext, sampleRate: Int, channels: Int,
    watch: (@Sendable (Bool) -> Void)? = nil
  ) throws {
    guard let descriptor = feature.code.processor else {
      throw ValidationFailure("\(feature.id) has no processor")
    }
    self.feature = feature
    self.descriptor = descriptor
    self.channels = channels
    self.sampleRate = sampleRate
    self.watch = watch
    self.handle = try context.instance(of: feature)
    let config = pb_processor_config(
      struct_size: UInt32(MemoryLayout<pb_processor_config>.size),
      sample_rate: UInt32(sampleRate), channel_count: UInt32(channels),
      max_frame_count: UInt32(Self.maxFrames))
    context.step("processor create: \(feature.id) at \(sampleRate) Hz, \(channels) channel(s)")
    guard let processor = self.handle.withInstance({ $0.createProcessor(config, offline: true) })
    else { throw ValidationFailure("\(feature.id): the processor's create returned NULL") }
    self.processor = processor
    self.block =
      descriptor.parameter_size > 0
      ? pb_guarded_allocate(
        Int(descriptor.parameter_size),
        UnsafeRawPointer(Self.blockName.utf8Start).assumingMemoryBound(to: CChar.self)) : nil
    self.output = .allocate(capacity: Self.maxFrames * channels)
    self.midi = .allocate(capacity: Self.midiCapacity)
    self.call = .allocate(capacity: 1)
    self.pushes = .allocate(capacity: 1)
    self.pushes.initialize(to: 0)
    self.events = .allocate(capacity: 1)
    self.events.initialize(to: pb_event_output(context: self.pushes, push: Self.push))
    self.midiOut = .allocate(capacity: 1)
    self.midiOut.initialize(to: pb_midi_output(context: self.pushes, push: Self.pushMIDI))
    self.note = .allocate(capacity: 1)
    self.note.initialize(
      to: pb_processor_note(
        crash: pb_crash_context(
          feature: feature.code.crashLabel, instance: nil, call: pb_process_call, action: nil),
        misuse: pb_audio_misuse(count: 0, first: nil)))
    self.writeParameters(context)
    let thread = Thread { [unowned self] in self.audioThread() }
    thread.name = "validate-audio"
    thread.start()
  }

  /// Renders one period of `frames` on the audio thread, its output first filled with
  /// `fill`; returns how long `process` took, in nanoseconds.
  @discardableResult
  func period(frames: Int, midi: [pb_midi_event] = [], fill: Float = 0) -> UInt64 {
    self.frames = min(frames, Self.maxFrames)
    self.midiCount = min(midi.count, Self.midiCapacity)
    for (index, event) in midi.prefix(self.midiCount).enumerated() { self.midi[index] = event }
    self.fill = fill
    self.request.signal()
    self.done.wait()
    self.steadyTime += UInt64(self.frames)
    return self.duration
  }

  /// What the processor pushed (events and MIDI) in the last period.
  var pushed: Int { self.pushes.pointee }

  /// Sends an action's text to the instance, then writes the parameters for the new state.
  func send(_ text: String, _ context: ValidationContext) {
    try? self.handle.send(text: text)
    self.writeParameters(context)
  }

  /// `write_parameters` into the block, lent out writable and zeroed for the call.
  func writeParameters(_ context: ValidationContext) {
    guard let block = self.block else { return }
    context.step("write_parameters: \(self.feature.id)")
    self.handle.withInstance { instance in
      pb_guarded_open(block, 1)
      block.initializeMemory(
        as: UInt8.self, repeating: 0, count: Int(self.descriptor.parameter_size))
      instance.writeParameters(block)
      pb_guarded_close(block)
    }
  }

  /// Stops the audio thread and frees the processor, the instance and the buffers.
  func close() {
    self.stopping = true
    self.request.signal()
    self.done.wait()
    self.descriptor.destroy?(self.processor)
    if let block = self.block { pb_guarded_free(block) }
    self.output.deallocate()
    self.midi.deallocate()
    self.call.deallocate()
    self.events.deallocate()
    self.midiOut.deallocate()
    self.pushes.deallocate()
    self.note.deallocate()
  }

  /// The audio thread: one `process` call a request, the block lent out read-only for it and
  /// the probe's counters (if any) watching only the call.
  private func audioThread() {
    let watch = self.watch
    let process = self.descriptor.process
    // The child's watchdog names a `process` that does not return (--call-seconds).
    pb_watch_audio_thread(1)
    defer { pb_watch_audio_thread(0) }
    while true {
      self.request.wait()
      if self.stopping { break }
      pb_watch_period()
      let samples = self.frames * self.channels
      self.output.update(repeating: self.fill, count: samples)
      self.pushes.pointee = 0
      self.call.pointee = pb_process(
        struct_size: UInt32(MemoryLayout<pb_process>.size), frame_count: UInt32(self.frames),
        sample_rate: UInt32(self.sampleRate), channel_count: UInt32(self.channels),
        steady_time: self.steadyTime, output: self.output,
        parameters: self.block.map { UnsafeRawPointer($0) },
        midi: self.midiCount > 0 ? UnsafePointer(self.midi) : nil,
        midi_count: UInt32(self.midiCount), events: UnsafePointer(self.events),
        midi_out: self.descriptor.max_midi_output > 0 ? UnsafePointer(self.midiOut) : nil)
      if let block = self.block { pb_guarded_open(block, 0) }
      let start = DispatchTime.now().uptimeNanoseconds
      watch?(true)
      pb_crash_note(UnsafeRawPointer(self.note).assumingMemoryBound(to: pb_crash_context.self))
      process?(self.processor, self.call)
      pb_crash_note(nil)
      watch?(false)
      self.duration = DispatchTime.now().uptimeNanoseconds - start
      if let block = self.block { pb_guarded_close(block) }
      self.done.signal()
    }
    self.done.signal()
  }

  private static let push:
    @convention(c) (UnsafePointer<pb_event_output>?, UnsafePointer<pb_processor_event>?) -> Bool =
      { output, _ in
        guard let count = output?.pointee.context?.assumingMemoryBound(to: Int.self) else {
          return false
        }
        count.pointee += 1
        return true
      }

  private static let pushMIDI:
    @convention(c) (UnsafePointer<pb_midi_output>?, UnsafePointer<pb_midi_event>?) -> Bool = {
      output, _ in
      guard let count = output?.pointee.context?.assumingMemoryBound(to: Int.self) else {
        return false
      }
      count.pointee += 1
      return true
    }
}
