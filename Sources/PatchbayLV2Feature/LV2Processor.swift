import CPatchbayInterleave
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
  /// The instances, kept alive here; the audio thread reaches them through ``runs``.
  private let instances: [LV2Instance]
  private let instanceCount: Int
  /// Each instance, unretained: no reference counting on the audio thread.
  private let runs: UnsafeMutablePointer<Unmanaged<LV2Instance>>
  /// Each instance's control values (its ports' buffer), and audio buffers: input `port` of
  /// instance `i` is `inputs[i × inputCount + port]`, likewise the outputs.
  private let controls: UnsafeMutablePointer<UnsafeMutablePointer<Float>>
  private let inputs: UnsafeMutablePointer<UnsafeMutablePointer<Float>>
  private let outputs: UnsafeMutablePointer<UnsafeMutablePointer<Float>>
  /// The port index of each control input, in the block's order.
  private let controlPorts: UnsafeMutablePointer<Int>
  private let controlCount: Int
  private let inputCount: Int
  private let outputCount: Int
  private let maximumFrames: Int
  private let replicated: Bool
  private let inserts: Bool
  private var lastSequence: UInt32 = 0

  init(_ code: LV2FeatureCode, sampleRate: Int, channels: Int, maximumFrames: Int)
    throws(LV2Error)
  {
    let info = code.info
    let inputs = info.ports.filter { $0.kind == .audio && $0.isInput }.count
    let outputs = info.ports.filter { $0.kind == .audio && !$0.isInput }.count
    // An effect, that is: a mono instrument plays once, on every channel.
    self.replicated = code.processorInserts && inputs == 1 && outputs == 1 && channels > 1
    var instances: [LV2Instance] = []
    for _ in 0..<(self.replicated ? channels : 1) {
      instances.append(
        try LV2Instance(
          info, sampleRate: sampleRate, maximumFrames: maximumFrames,
          allowingNonRealtime: code.allowsNonRealtime))
    }
    self.instances = instances
    self.instanceCount = instances.count
    self.runs = .allocate(capacity: instances.count)
    self.controls = .allocate(capacity: instances.count)
    self.inputs = .allocate(capacity: max(1, instances.count * inputs))
    self.outputs = .allocate(capacity: max(1, instances.count * outputs))
    for (index, instance) in instances.enumerated() {
      (self.runs + index).initialize(to: Unmanaged.passUnretained(instance))
      (self.controls + index).initialize(to: instance.controls)
      for port in 0..<inputs {
        (self.inputs + index * inputs + port).initialize(to: instance.audioInputs[port])
      }
      for port in 0..<outputs {
        (self.outputs + index * outputs + port).initialize(to: instance.audioOutputs[port])
      }
    }
    self.controlCount = code.controls.ports.count
    self.controlPorts = .allocate(capacity: max(1, self.controlCount))
    for (index, port) in code.controls.ports.enumerated() {
      (self.controlPorts + index).initialize(to: port.index)
    }
    (self.inputCount, self.outputCount, self.maximumFrames) = (inputs, outputs, maximumFrames)
    self.inserts = code.processorInserts
  }

  deinit {
    self.runs.deallocate()
    self.controls.deallocate()
    self.inputs.deallocate()
    self.outputs.deallocate()
    self.controlPorts.deallocate()
  }

  /// Gives every instance the plugin's own state (the state extension). [before it plays]
  func restore(_ pluginState: String) throws(LV2Error) {
    for instance in self.instances { try instance.restoreState(pluginState) }
  }

  /// `pb_processor_desc.process`. [audio-thread]
  static let process:
    @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<pb_process>?) -> Void =
      { raw, process in
        guard let raw, let process else { return }
        Unmanaged<LV2Processor>.fromOpaque(raw)._withUnsafeGuaranteedRef { $0.render(process) }
      }

  /// `pb_processor_desc.destroy`: the graph's last reference. [app queue]
  static let destroy: @convention(c) (UnsafeMutableRawPointer?) -> Void = { raw in
    guard let raw else { return }
    Unmanaged<LV2Processor>.fromOpaque(raw).release()
  }

  /// One period. [audio-thread]
  func render(_ process: UnsafePointer<pb_process>) {
    let frames = Int(process.pointee.frame_count)
    let channels = Int(process.pointee.channel_count)
    guard let mix = process.pointee.output, frames <= self.maximumFrames, channels > 0 else {
      return
    }
    if let block = process.pointee.parameters { self.applyControls(block) }
    if process.pointee.midi_count > 0, let midi = process.pointee.midi {
      self.queue(midi, count: Int(process.pointee.midi_count))
    }
    // An instrument's audio inputs stay silent (its buffers start zeroed); an effect hears the mix.
    if self.inserts { self.takeInputs(from: mix, frames: frames, channels: channels) }
    var instance = 0
    while instance < self.instanceCount {
      self.runs[instance]._withUnsafeGuaranteedRef { $0.run(frames: frames) }
      instance += 1
    }
    self.putOutputs(into: mix, frames: frames, channels: channels)
  }

  /// The mix into the inputs: a stereo mix in one pass, else channel by channel.
  /// [audio-thread]
  private func takeInputs(from mix: UnsafeMutablePointer<Float>, frames: Int, channels: Int) {
    // Replicated, instance `i`'s one input is input `i` of the flat list: the same layout.
    let ports = self.replicated ? self.instanceCount : self.inputCount
    if channels == 2, ports == 2 {
      return pb_stereo_split(mix, frames, self.inputs[0], self.inputs[1])
    }
    var port = 0
    while port < ports {
      pb_channel_take(mix, frames, channels, port % channels, self.inputs[port])
      port += 1
    }
  }

  /// The outputs into the mix: over it for an effect, added for an instrument; a mono output
  /// on every channel, extra outputs added to channel `j mod channels`. [audio-thread]
  private func putOutputs(into mix: UnsafeMutablePointer<Float>, frames: Int, channels: Int) {
    let ports = self.replicated ? self.instanceCount : self.outputCount
    guard ports > 0 else { return }  // an analyser: the mix goes on as it was
    let add = !self.inserts
    if channels == 2, ports == 2 {
      return pb_stereo_join(self.outputs[0], self.outputs[1], frames, mix, add)
    }
    var channel = 0
    while channel < channels {
      pb_channel_put(self.outputs[channel % ports], frames, channels, channel, mix, add)
      channel += 1
    }
    while channel < ports {
      pb_channel_put(self.outputs[channel], frames, channels, channel % channels, mix, true)
      channel += 1
    }
  }

  /// The period's MIDI into every instance's atom input. [audio-thread]
  private func queue(_ midi: UnsafePointer<pb_midi_event>, count: Int) {
    var index = 0
    while index < count {
      var event = midi[index]
      withUnsafeBytes(of: &event.bytes) { bytes in
        let message = UnsafeRawBufferPointer(rebasing: bytes[0..<Int(event.size)])
        var instance = 0  // every channel's instance hears it (an autotuner's key, say)
        while instance < self.instanceCount {
          _ = self.runs[instance]._withUnsafeGuaranteedRef {
            $0.queueMIDI(message, at: Int(event.frame))
          }
          instance += 1
        }
      }
      index += 1
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
      let controls = self.controls[instance]
      var index = 0
      while index < self.controlCount {
        controls[self.controlPorts[index]] = block.load(
          fromByteOffset: 8 + 4 * index, as: Float.self)
        index += 1
      }
      instance += 1
    }
  }
}
