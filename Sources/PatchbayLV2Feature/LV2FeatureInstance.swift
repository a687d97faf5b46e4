import Foundation
import PatchbayABI
import PatchbayEncoding
import PatchbayLV2
import PatchbayLoader

/// One instance of an LV2 feature: the control values (its state), and the processor that
/// plays them. Called on the app queue only (``PluginInstance``).
///
/// ```swift
/// instance.reduce(LV2Action.set(port: "gain", value: -6).value.bytes)   // PB_OK
/// instance.snapshot(limit: 65_536)                                       // {…, gain: -6.0, …}
/// ```
///
/// A refused action (a control the plugin lacks, a preset it does not ship) changes nothing
/// and says why in one line.
final class LV2FeatureInstance: PluginInstance {
  let code: LV2FeatureCode
  private(set) var values: [Double]
  /// What the plugin keeps beyond its ports (the state extension), as Turtle; nil: its own
  /// defaults. Restored into the processor's instances before they play.
  private(set) var pluginState: String?
  /// Set when ``pluginState`` changed: the graph makes a new processor, restored from it
  /// (LV2's `restore` may not run beside `run`).
  private var restartsProcessor = false
  private let context: HostContext
  /// Bumped on every change: the processor copies the controls only when it moved.
  private var sequence: UInt32 = 1

  init(code: LV2FeatureCode, values: [Double], pluginState: String?, context: HostContext) {
    (self.code, self.values, self.context) = (code, values, context)
    self.pluginState = pluginState
    // An instrument listens on every channel, as a plugin would through the MIDI service
    // (patchbay/host.h): so in an isolated plugin's process too, which forwards it.
    if code.takesMIDI,
      let service = context.host.pointee.get_service?(context.host, PB_SERVICE_MIDI)
    {
      let midi = service.assumingMemoryBound(to: pb_midi_service.self)
      midi.pointee.listen?(context.host, UInt16(PB_MIDI_ALL_CHANNELS))
    }
  }

  func reduce(_ bytes: [UInt8]) -> pb_status {
    let action: LV2Action
    do {
      action = try LV2Action(WireValue(decoding: bytes))
    } catch {
      self.context.report("\(self.code.info.uri): \(error)")
      return PB_ERR_DECODE
    }
    let controls = self.code.controls
    var next = self.values
    switch action {
    case .set(let port, let value):
      guard let index = controls.index(of: port) else {
        self.context.report(self.code.problem(with: action) ?? port)
        return PB_ERR_DECODE
      }
      next[index] = controls.clamped(value, at: index)
    case .preset(let name):
      do throws(LV2Error) {
        for (symbol, value) in try self.code.info.presetValues(name) {
          guard let index = controls.index(of: symbol) else { continue }
          next[index] = controls.clamped(LV2Controls.shortest(value), at: index)
        }
        if let properties = try self.code.info.presetProperties(name),
          properties != self.pluginState
        {
          self.pluginState = properties
          self.restartsProcessor = true
        }
      } catch {
        self.context.report(error.description)
        return PB_ERR_DECODE
      }
    case .reset:
      next = controls.defaults
    case .midi:
      return PB_OK  // the processor plays it; the controls do not change
    }
    if next != self.values {
      self.values = next
      self.sequence &+= 1
      if self.sequence == 0 { self.sequence = 1 }
    }
    return PB_OK
  }

  func snapshot(limit: Int) -> (pb_status, [UInt8]?) {
    guard case .record(var fields) = self.code.controls.state(self.values) else {
      return (PB_ERR_FAILED, nil)
    }
    if let pluginState {
      fields.append(WireValue.Field(LV2Controls.pluginStateField, .string(pluginState)))
    }
    return Self.limited(WireValue.record(fields).bytes, limit)
  }

  func takeProcessorRestart() -> Bool {
    defer { self.restartsProcessor = false }
    return self.restartsProcessor
  }

  /// One control a line: `gain  -6.0  (-20.0…20.0)  Gain`.
  func render(limit: Int) -> (pb_status, [UInt8]?) {
    let lines = zip(self.code.controls.ports, self.values).map { port, value in
      "\(port.symbol)  \(value)  (\(port.minimum)…\(port.maximum))  \(port.name)"
    }
    return Self.limited(Array(([self.code.info.name] + lines).joined(separator: "\n").utf8), limit)
  }

  var runningEffects: Int { 0 }
  var effectCount: Int? { 0 }
  func cancelEffects() {}
  func destroy() {}

  func createProcessor(_ config: pb_processor_config, offline: Bool) -> UnsafeMutableRawPointer? {
    do throws(LV2Error) {
      let processor = try LV2Processor(
        self.code, sampleRate: Int(config.sample_rate), channels: Int(config.channel_count),
        maximumFrames: Int(config.max_frame_count))
      if let pluginState = self.pluginState { try processor.restore(pluginState) }
      return Unmanaged.passRetained(processor).toOpaque()
    } catch {
      self.context.report(error.description)
      return nil
    }
  }

  /// The block: the sequence number, 4 bytes of padding, then each control as a float.
  func writeParameters(_ block: UnsafeMutableRawPointer) {
    block.storeBytes(of: self.sequence, as: UInt32.self)
    var index = 0
    while index < self.values.count {
      block.storeBytes(of: Float(self.values[index]), toByteOffset: 8 + 4 * index, as: Float.self)
      index += 1
    }
  }

  func eventAction(_ event: pb_processor_event) -> (pb_status, [UInt8]) { (PB_ERR_UNSUPPORTED, []) }

  private static func limited(_ bytes: [UInt8], _ limit: Int) -> (pb_status, [UInt8]?) {
    bytes.count <= limit ? (PB_OK, bytes) : (PB_ERR_FAILED, nil)
  }
}
