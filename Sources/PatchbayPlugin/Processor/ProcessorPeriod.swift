import PatchbayABI

/// One period, as a processor sees it: where to add its sound, the MIDI that arrived, and
/// where to send events. Valid during ``FeatureProcessor/process(_:parameters:)`` only.
///
/// ```swift
/// func process(_ period: ProcessorPeriod, parameters: Parameters) {
///   for message in period.midi where message.isNoteOn { start(message.note, at: message.frame) }
///   for frame in 0..<period.frameCount {
///     period.output[frame * period.channelCount] += nextSample()
///   }
///   period.emit(ProcessorEvent(frame: 0, kind: 1, value: beat))
/// }
/// ```
public struct ProcessorPeriod {
  @usableFromInline let process: UnsafePointer<pb_process>

  @inlinable init(_ process: UnsafePointer<pb_process>) { self.process = process }

  @inlinable public var frameCount: Int { Int(self.process.pointee.frame_count) }
  @inlinable public var sampleRate: Int { Int(self.process.pointee.sample_rate) }
  @inlinable public var channelCount: Int { Int(self.process.pointee.channel_count) }
  /// Frames the audio ran before this period's first frame.
  @inlinable public var steadyTime: UInt64 { self.process.pointee.steady_time }
  /// `frameCount × channelCount` interleaved samples; add into them.
  @inlinable public var output: UnsafeMutablePointer<Float> { self.process.pointee.output }

  /// The period's MIDI messages, sorted by frame.
  @inlinable public var midi: MIDIMessages {
    MIDIMessages(start: self.process.pointee.midi, count: Int(self.process.pointee.midi_count))
  }

  /// Sends `event` to the reducer; false when this period's room is used up (dropped).
  @inlinable @discardableResult
  public func emit(_ event: ProcessorEvent) -> Bool {
    guard let output = self.process.pointee.events, let push = output.pointee.push else {
      return false
    }
    var raw = pb_processor_event(
      frame: UInt32(clamping: event.frame), kind: event.kind, value: event.value, time: 0)
    return push(output, &raw)
  }

  /// Sends a MIDI message at `frame` to the processors after this one (a synth), in this
  /// period; false when the feature declared no ``AudioFeature/maxMIDIOutput``, its room is
  /// used up, or the frames go back.
  ///
  /// ```swift
  /// period.send(MIDIFrameMessage(frame: 17, status: 0x90, data1: 60, data2: 100))
  /// ```
  @inlinable @discardableResult
  public func send(_ message: MIDIFrameMessage) -> Bool {
    guard Int(self.process.pointee.struct_size) >= MemoryLayout<pb_process>.size,
      let output = self.process.pointee.midi_out, let push = output.pointee.push
    else { return false }
    var raw = pb_midi_event(
      frame: UInt32(clamping: message.frame), size: message.status >= 0xF8 ? 1 : 3,
      bytes: (message.status, message.data1, message.data2))
    return push(output, &raw)
  }
}

/// The MIDI messages of a period, in frame order.
public struct MIDIMessages: RandomAccessCollection {
  @usableFromInline let start: UnsafePointer<pb_midi_event>?
  public let count: Int

  @inlinable init(start: UnsafePointer<pb_midi_event>?, count: Int) {
    self.start = start
    self.count = start == nil ? 0 : count
  }

  public var startIndex: Int { 0 }
  public var endIndex: Int { self.count }

  @inlinable public subscript(index: Int) -> MIDIFrameMessage {
    MIDIFrameMessage(raw: self.start![index])
  }
}

/// A raw MIDI 1.0 message at a frame of the period.
public struct MIDIFrameMessage: Sendable, Equatable {
  public let frame: Int
  public let status: UInt8
  public let data1: UInt8
  public let data2: UInt8

  @inlinable init(raw: pb_midi_event) {
    self.frame = Int(raw.frame)
    self.status = raw.bytes.0
    self.data1 = raw.size > 1 ? raw.bytes.1 : 0
    self.data2 = raw.size > 2 ? raw.bytes.2 : 0
  }

  /// A message to send (``ProcessorPeriod/send(_:)``).
  @inlinable public init(frame: Int, status: UInt8, data1: UInt8 = 0, data2: UInt8 = 0) {
    (self.frame, self.status, self.data1, self.data2) = (frame, status, data1, data2)
  }

  /// A note-on on `channel` (0–15).
  @inlinable public static func noteOn(frame: Int, channel: Int = 0, note: Int, velocity: Int)
    -> Self
  {
    Self(
      frame: frame, status: 0x90 | UInt8(channel & 0x0F), data1: UInt8(note & 0x7F),
      data2: UInt8(velocity & 0x7F))
  }

  /// A note-off on `channel` (0–15).
  @inlinable public static func noteOff(frame: Int, channel: Int = 0, note: Int) -> Self {
    Self(frame: frame, status: 0x80 | UInt8(channel & 0x0F), data1: UInt8(note & 0x7F))
  }

  /// 0–15.
  @inlinable public var channel: Int { Int(self.status & 0x0F) }
  @inlinable public var isNoteOn: Bool { self.status & 0xF0 == 0x90 && self.data2 > 0 }
  @inlinable public var isNoteOff: Bool {
    self.status & 0xF0 == 0x80 || (self.status & 0xF0 == 0x90 && self.data2 == 0)
  }
  @inlinable public var note: Int { Int(self.data1) }
  @inlinable public var velocity: Int { Int(self.data2) }
}
