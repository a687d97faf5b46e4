import CLilv
import Foundation

/// A running LV2 plugin: instantiated at a rate, its ports connected to buffers the host owns,
/// run a block at a time.
///
/// ```swift
/// let eq = try LV2Instance(LV2World.shared.plugin(uri: "http://gareus.org/oss/lv2/fil4#mono"),
///                          sampleRate: 48_000, maximumFrames: 128)
/// try eq.set("gain", to: -6)                  // a control port, by symbol (clamped to its range)
/// eq.audioInputs[0].update(from: sine, count: 128)
/// eq.run(frames: 128)                          // [audio-thread]: no allocation, no lock
/// eq.audioOutputs[0][0]                        // the sound, 6 dB down
/// ```
///
/// Every buffer is allocated here, for `maximumFrames` (LV2's `buf-size:boundedBlockLength`):
/// audio and CV ports a buffer each, control ports a value each (``controls``), atom ports a
/// sequence of ``sequenceCapacity`` bytes. ``run(frames:)`` touches only those. A plugin with
/// a worker (`work:schedule`) gets a thread for its slow work, whose answers reach it after
/// each run (``LV2Worker``).
public final class LV2Instance: @unchecked Sendable {
  public let info: LV2PluginInfo
  public let sampleRate: Int
  public let maximumFrames: Int
  /// Bytes in each atom port's buffer (`buf-size:sequenceSize`).
  public static let sequenceCapacity = 8192

  /// Each port's control value, by port index (0 for ports that are not controls).
  public let controls: UnsafeMutablePointer<Float>
  /// The audio input ports' buffers, in port order; likewise the outputs.
  public let audioInputs: [UnsafeMutablePointer<Float>]
  public let audioOutputs: [UnsafeMutablePointer<Float>]
  /// The first atom input that takes MIDI: where ``queueMIDI(_:at:)`` writes.
  public let takesMIDI: Bool

  let instance: UnsafeMutablePointer<LilvInstance>
  private let buffers: [UnsafeMutableRawPointer]
  /// The atom ports' sequences, in buffers of their own rather than arrays: the audio thread
  /// walks them every period, and a `for` over an array allocates in a debug build.
  private let atomInputs: UnsafeMutableBufferPointer<UnsafeMutablePointer<LV2_Atom_Sequence>>
  private let atomOutputs: UnsafeMutableBufferPointer<UnsafeMutablePointer<LV2_Atom_Sequence>>
  private let midiInput: UnsafeMutablePointer<LV2_Atom_Sequence>?
  let features: LV2Features
  private let worker: LV2Worker
  /// Whether the plugin has a worker (`work:schedule`) the host runs a thread for.
  public let hasWorker: Bool
  private let sequenceType: LV2_URID
  private let chunkType: LV2_URID
  private let midiType: LV2_URID
  private var isActive = false

  /// Instantiates `info` at `sampleRate` for blocks of at most `maximumFrames`. Throws, in one
  /// line naming the plugin, when it needs what Patchbay does not provide, is not
  /// hard-realtime capable (unless `allowingNonRealtime`), or fails to instantiate.
  public init(
    _ info: LV2PluginInfo, sampleRate: Int, maximumFrames: Int, allowingNonRealtime: Bool = false
  ) throws(LV2Error) {
    if let refusal = info.refusal(allowingNonRealtime: allowingNonRealtime) {
      throw LV2Error(refusal)
    }
    let map = LV2URIDMap.shared
    (self.sequenceType, self.chunkType) = (map.map(LV2URI.atomSequence), map.map(LV2URI.atomChunk))
    self.midiType = map.map(LV2URI.midiEvent)
    let worker = LV2Worker()
    let features = LV2Features(
      sampleRate: sampleRate, maximumFrames: maximumFrames,
      sequenceCapacity: Self.sequenceCapacity, worker: worker)
    (self.features, self.worker) = (features, worker)
    let made = LV2World.shared.lock.withLock { _ in
      lilv_plugin_instantiate(info.plugin, Double(sampleRate), features.list)
    }
    guard let made else {
      throw LV2Error(
        "<\(info.uri)> would not instantiate at \(sampleRate) Hz: "
          + (info.libraryProblem ?? "its instantiate returned nothing"))
    }
    (self.info, self.sampleRate, self.maximumFrames, self.instance) = (
      info, sampleRate, maximumFrames, made
    )
    self.controls = .allocate(capacity: max(1, info.ports.count))
    self.controls.initialize(repeating: 0, count: max(1, info.ports.count))
    var buffers: [UnsafeMutableRawPointer] = []
    var (inputs, outputs) = ([UnsafeMutablePointer<Float>](), [UnsafeMutablePointer<Float>]())
    var (atomIn, atomOut) = (
      [UnsafeMutablePointer<LV2_Atom_Sequence>](), [UnsafeMutablePointer<LV2_Atom_Sequence>]()
    )
    var midi: UnsafeMutablePointer<LV2_Atom_Sequence>?
    for port in info.ports {
      let location: UnsafeMutableRawPointer?
      switch port.kind {
      case .control:
        self.controls[port.index] = port.defaultValue.isNaN ? 0 : port.defaultValue
        location = UnsafeMutableRawPointer(self.controls + port.index)
      case .audio, .cv:
        let buffer = UnsafeMutablePointer<Float>.allocate(capacity: maximumFrames)
        buffer.initialize(repeating: 0, count: maximumFrames)
        buffers.append(UnsafeMutableRawPointer(buffer))
        if port.kind == .audio { port.isInput ? inputs.append(buffer) : outputs.append(buffer) }
        location = UnsafeMutableRawPointer(buffer)
      case .atom:
        let raw = UnsafeMutableRawPointer.allocate(
          byteCount: Self.sequenceCapacity, alignment: 16)
        raw.initializeMemory(as: UInt8.self, repeating: 0, count: Self.sequenceCapacity)
        buffers.append(raw)
        let sequence = raw.bindMemory(to: LV2_Atom_Sequence.self, capacity: 1)
        if port.isInput {
          atomIn.append(sequence)
          if port.carriesMIDI && midi == nil { midi = sequence }
        } else {
          atomOut.append(sequence)
        }
        location = raw
      case .other:
        location = nil
      }
      lilv_instance_connect_port(made, UInt32(port.index), location)
    }
    (self.buffers, self.audioInputs, self.audioOutputs) = (buffers, inputs, outputs)
    (self.atomInputs, self.atomOutputs) = (
      .allocate(capacity: atomIn.count), .allocate(capacity: atomOut.count)
    )
    _ = self.atomInputs.initialize(from: atomIn)
    _ = self.atomOutputs.initialize(from: atomOut)
    self.midiInput = midi
    self.takesMIDI = midi != nil
    self.hasWorker = worker.start(made)
    self.clearAtomPorts()
    lilv_instance_activate(made)
    self.isActive = true
  }

  deinit {
    self.worker.stop()  // before the instance goes: its thread calls the plugin's work
    if self.isActive { lilv_instance_deactivate(self.instance) }
    // lilv counts each library's instances in the world, unguarded, and unloads it at zero:
    // freed outside the lock, a count made at the same time on another thread could be lost.
    LV2World.shared.lock.withLock { _ in lilv_instance_free(self.instance) }
    self.controls.deallocate()
    for buffer in self.buffers { buffer.deallocate() }
    self.atomInputs.deallocate()
    self.atomOutputs.deallocate()
  }

  /// The port whose symbol is `symbol`.
  public func port(_ symbol: String) -> LV2Port? {
    self.info.ports.first { $0.symbol == symbol }
  }

  /// Sets the control input `symbol` to `value`, clamped to its range; returns the value set.
  /// Throws, naming the plugin's controls, when it has no such control input.
  @discardableResult
  public func set(_ symbol: String, to value: Float) throws(LV2Error) -> Float {
    guard let port = self.port(symbol), port.kind == .control, port.isInput else {
      let controls = self.info.ports.filter { $0.kind == .control && $0.isInput }
        .map(\.symbol).joined(separator: ", ")
      throw LV2Error(
        "<\(self.info.uri)> has no control input '\(symbol)': its controls are \(controls)")
    }
    guard value.isFinite else {
      throw LV2Error("\(symbol): \(value) is not a number a control can take")
    }
    let clamped = port.clamped(value)
    self.controls[port.index] = clamped
    return clamped
  }

  /// The value of control `symbol` (an input's as set, an output's as the plugin last wrote).
  public subscript(symbol: String) -> Float? {
    self.port(symbol).flatMap { $0.kind == .control ? self.controls[$0.index] : nil }
  }

  /// Adds one MIDI message at `frame` of the next block to the MIDI input. [audio-thread]
  /// Returns false when the plugin takes no MIDI or the block's sequence is full.
  @discardableResult
  public func queueMIDI(_ message: UnsafeRawBufferPointer, at frame: Int) -> Bool {
    guard let sequence = self.midiInput, !message.isEmpty else { return false }
    let header = MemoryLayout<LV2_Atom>.size
    let used = header + Int(sequence.pointee.atom.size)
    let eventSize = MemoryLayout<LV2_Atom_Event>.size + message.count
    let padded = (eventSize + 7) & ~7
    guard used + padded <= Self.sequenceCapacity else { return false }
    let event = (UnsafeMutableRawPointer(sequence) + used).bindMemory(
      to: LV2_Atom_Event.self, capacity: 1)
    event.pointee.time.frames = Int64(frame)
    event.pointee.body = LV2_Atom(size: UInt32(message.count), type: self.midiType)
    (UnsafeMutableRawPointer(event) + MemoryLayout<LV2_Atom_Event>.size)
      .copyMemory(from: message.baseAddress!, byteCount: message.count)
    sequence.pointee.atom.size += UInt32(padded)
    return true
  }

  /// Runs one block of `frames` (at most ``maximumFrames``), then empties the atom inputs for
  /// the next. [audio-thread]: no allocation, no lock.
  public func run(frames: Int) {
    lilv_instance_run(self.instance, UInt32(frames))
    if self.hasWorker { self.worker.deliverResponses() }
    self.clearAtomPorts()
  }

  /// The plugin's own `run` and its handle, to call with nothing of the host around it: what
  /// the benchmarks measure the host's cost against. (Its atom inputs are then not emptied.)
  public var pluginRun:
    (
      function: @convention(c) (UnsafeMutableRawPointer?, UInt32) -> Void,
      handle: UnsafeMutableRawPointer?
    )
  {
    (self.instance.pointee.lv2_descriptor.pointee.run, self.instance.pointee.lv2_handle)
  }

  /// Inputs: empty sequences. Outputs: room for the plugin to write. [audio-thread]
  private func clearAtomPorts() {
    let body = UInt32(MemoryLayout<LV2_Atom_Sequence_Body>.size)
    var index = 0
    while index < self.atomInputs.count {
      let sequence = self.atomInputs[index]
      sequence.pointee.atom = LV2_Atom(size: body, type: self.sequenceType)
      sequence.pointee.body = LV2_Atom_Sequence_Body(unit: 0, pad: 0)
      index += 1
    }
    let room = UInt32(Self.sequenceCapacity - MemoryLayout<LV2_Atom>.size)
    index = 0
    while index < self.atomOutputs.count {
      self.atomOutputs[index].pointee.atom = LV2_Atom(size: room, type: self.chunkType)
      index += 1
    }
  }
}
