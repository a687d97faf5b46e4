import PatchbayABI
import PatchbayLV2

/// An LV2 feature's realtime half: the plugin instantiated for the graph's format, fed the
/// mix (an effect) or MIDI (an instrument), and its `run` called once a period.
///
/// Channels: a plugin of one audio input and one output on a stereo mix runs as one instance
/// a channel (as Ardour replicates it), so a mono EQ keeps the stereo image. Otherwise input
/// `j` takes mix channel `j mod channels`, and output `j` goes to channel `j mod channels`; a
/// mono output plays on every channel. An effect (audio in and out) writes over the mix it
/// read; an instrument adds into it, as native processors do.
///
/// [audio-thread] ``process`` allocates nothing, takes no lock and calls no reducer: it copies
/// the controls only when the reducer's block moved (a sequence number), the MIDI into the
/// plugin's atom input, and the samples in and out.
final class LV2Processor {
  private let instances: [LV2Instance]
  private let instanceCount: Int
  /// The port index of each control input, in the block's order.
  private let controlPorts: UnsafeMutablePointer<Int>
  private let controlCount: Int
  private let channels: Int
  private let inputCount: Int
  private let outputCount: Int
  private let replicated: Bool
  private let inserts: Bool
  private var lastSequence: UInt32 = 0

  init(_ code: LV2FeatureCode, sampleRate: Int, channels: Int, maximumFrames: Int)
    throws(LV2Error)
  {
    let info = code.info
    let inputs = info.ports.filter { $0.kind == .audio && $0.isInput }.count
    let outputs = info.ports.filter { $0.kind == .audio && !$0.isInput }.count
    self.replicated = inputs == 1 && outputs == 1 && channels > 1
    var instances: [LV2Instance] = []
    for _ in 0..<(self.replicated ? channels : 1) {
      instances.append(
        try LV2Instance(
          info, sampleRate: sampleRate, maximumFrames: maximumFrames,
          allowingNonRealtime: code.allowsNonRealtime))
    }
    self.instances = instances
    self.instanceCount = instances.count
    self.controlCount = code.controls.ports.count
    self.controlPorts = .allocate(capacity: max(1, self.controlCount))
    for (index, port) in code.controls.ports.enumerated() {
      (self.controlPorts + index).initialize(to: port.index)
    }
    (self.channels, self.inputCount, self.outputCount) = (channels, inputs, outputs)
    self.inserts = code.processorInserts
  }

  deinit {
    self.controlPorts.deallocate()
  }

  /// `pb_processor_desc.process`. [audio-thread]
  static let process:
    @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<pb_process>?) -> Void =
      { raw, process in
        guard let raw, let process else { return }
        Unmanaged<LV2Processor>.fromOpaque(raw).takeUnretainedValue().render(process.pointee)
      }

  /// `pb_processor_desc.destroy`: the graph's last reference. [app queue]
  static let destroy: @convention(c) (UnsafeMutableRawPointer?) -> Void = { raw in
    guard let raw else { return }
    Unmanaged<LV2Processor>.fromOpaque(raw).release()
  }

  /// One period. [audio-thread]
  func render(_ process: pb_process) {
    let frames = Int(process.frame_count)
    let mixChannels = Int(process.channel_count)
    guard let mix = process.output, frames <= self.instances[0].maximumFrames else { return }
    if let block = process.parameters { self.applyControls(block) }
    var index = 0
    while index < Int(process.midi_count), let midi = process.midi {
      var event = midi[index]
      withUnsafeBytes(of: &event.bytes) { bytes in
        let message = UnsafeRawBufferPointer(rebasing: bytes[0..<Int(event.size)])
        var instance = 0  // every channel's instance hears it (an autotuner's key, say)
        while instance < self.instanceCount {
          _ = self.instances[instance].queueMIDI(message, at: Int(event.frame))
          instance += 1
        }
      }
      index += 1
    }
    var instance = 0
    while instance < self.instanceCount {
      let plugin = self.instances[instance]
      var port = 0
      while port < self.inputCount {
        let channel = self.replicated ? instance : port % mixChannels
        Self.take(
          channel, of: mix, channels: mixChannels, frames: frames, into: plugin.audioInputs[port])
        port += 1
      }
      plugin.run(frames: frames)
      instance += 1
    }
    guard self.outputCount > 0 else { return }
    if self.inserts { mix.update(repeating: 0, count: frames * mixChannels) }
    if self.replicated {
      instance = 0
      while instance < self.instanceCount {
        Self.add(
          self.instances[instance].audioOutputs[0], to: instance, of: mix, channels: mixChannels,
          frames: frames)
        instance += 1
      }
      return
    }
    let outputs = self.instances[0].audioOutputs
    var channel = 0
    while channel < mixChannels {
      Self.add(
        outputs[channel % self.outputCount], to: channel, of: mix, channels: mixChannels,
        frames: frames)
      channel += 1
    }
    var extra = mixChannels
    while extra < self.outputCount {
      Self.add(
        outputs[extra], to: extra % mixChannels, of: mix, channels: mixChannels, frames: frames)
      extra += 1
    }
  }

  /// Writes the block's controls into every instance's control ports, when the reducer
  /// published a new block since the last period. [audio-thread]
  private func applyControls(_ block: UnsafeRawPointer) {
    let sequence = block.load(as: UInt32.self)
    guard sequence != self.lastSequence else { return }
    self.lastSequence = sequence
    var instance = 0
    while instance < self.instanceCount {
      let controls = self.instances[instance].controls
      var index = 0
      while index < self.controlCount {
        controls[self.controlPorts[index]] = block.load(
          fromByteOffset: 8 + 4 * index, as: Float.self)
        index += 1
      }
      instance += 1
    }
  }

  /// Copies channel `channel` of the interleaved `mix` into `buffer`. [audio-thread]
  @inline(__always)
  private static func take(
    _ channel: Int, of mix: UnsafeMutablePointer<Float>, channels: Int, frames: Int,
    into buffer: UnsafeMutablePointer<Float>
  ) {
    var frame = 0
    while frame < frames {
      buffer[frame] = mix[frame * channels + channel]
      frame += 1
    }
  }

  /// Adds `buffer` into channel `channel` of the interleaved `mix`. [audio-thread]
  @inline(__always)
  private static func add(
    _ buffer: UnsafeMutablePointer<Float>, to channel: Int, of mix: UnsafeMutablePointer<Float>,
    channels: Int, frames: Int
  ) {
    var frame = 0
    while frame < frames {
      mix[frame * channels + channel] += buffer[frame]
      frame += 1
    }
  }
}
