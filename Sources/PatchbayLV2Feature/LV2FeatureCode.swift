import Foundation
import PatchbayABI
import PatchbayEncoding
import PatchbayLV2
import PatchbayLoader

/// An installed LV2 plugin as a feature's code: its state is its control inputs
/// (``LV2Controls``), its actions ``LV2Action``, its processor the plugin's `run`
/// (``LV2Processor``).
///
/// ```swift
/// let plugin = try LV2FeaturePlugin.load("lv2:http://gareus.org/oss/lv2/fil4#stereo")
/// plugin.features[0].code          // an LV2FeatureCode: the host runs it as any feature
/// ```
///
/// The reducer never touches the plugin: it keeps the values, and each action publishes
/// them to the processor, which writes them into the plugin's control ports before its next
/// `run`. So a state is exactly what the plugin hears, and a replay or a swap hears the same.
final class LV2FeatureCode: FeatureCode, @unchecked Sendable {
  let info: LV2PluginInfo
  let controls: LV2Controls
  let allowsNonRealtime: Bool
  let processor: pb_processor_desc?
  let crashLabel: UnsafePointer<CChar>
  var migrates: Bool { false }
  var cancelsByKey: Bool { false }
  /// An effect (audio in and out, not an instrument) works on the mix the processors before it
  /// made. An instrument adds into it, whatever audio inputs it has (they hear silence).
  var processorInserts: Bool {
    !self.inputs.isEmpty && !self.outputs.isEmpty && !self.info.isInstrument
  }
  /// An instrument: it has a MIDI input, so its instances listen to every channel.
  var takesMIDI: Bool {
    self.info.ports.contains { $0.kind == .atom && $0.isInput && $0.carriesMIDI }
  }
  private var inputs: [LV2Port] { self.info.ports.filter { $0.kind == .audio && $0.isInput } }
  private var outputs: [LV2Port] { self.info.ports.filter { $0.kind == .audio && !$0.isInput } }

  /// The most controls a parameter block holds: a sequence number, then a float each.
  static let maximumControls = (Int(PB_MAX_PARAMETER_SIZE) - 8) / 4

  init(_ info: LV2PluginInfo, allowsNonRealtime: Bool, file: String) {
    self.info = info
    self.controls = LV2Controls(info)
    self.allowsNonRealtime = allowsNonRealtime
    self.crashLabel = UnsafePointer(strdup("\(info.uri) (\(file))")!)
    self.processor = pb_processor_desc(
      struct_size: UInt32(MemoryLayout<pb_processor_desc>.size),
      parameter_size: UInt32(8 + 4 * self.controls.ports.count), max_output_events: 0,
      write_parameters: nil, create: nil, process: LV2Processor.process,
      destroy: LV2Processor.destroy, event_action: nil, max_midi_output: 0)
  }

  func create(state: [UInt8]?, context: HostContext, label: CrashLabel?) -> (any PluginInstance)? {
    var (values, pluginState) = (self.controls.defaults, String?.none)
    if let state {
      do throws(LV2Error) {
        values = try self.controls.values(from: state)
        pluginState = try self.controls.pluginState(from: state, of: self.info.uri)
      } catch {
        context.report("\(self.info.uri): \(error)")
        return nil
      }
    }
    return LV2FeatureInstance(
      code: self, values: values, pluginState: pluginState, context: context)
  }

  func parseAction(_ text: String, context: HostContext) -> (pb_status, [UInt8]) {
    do {
      let action = try LV2Action(WireValue(parsingAction: text))
      if let problem = self.problem(with: action) {
        context.report(problem)
        return (PB_ERR_INVALID, [])
      }
      return (PB_OK, action.value.bytes)
    } catch {
      context.report("\(error)")
      return (PB_ERR_INVALID, [])
    }
  }

  func formatAction(_ action: [UInt8], context: HostContext) -> (pb_status, [UInt8]) {
    do {
      return (PB_OK, Array(try LV2Action(WireValue(decoding: action)).value.actionText.utf8))
    } catch {
      context.report("\(error)")
      return (PB_ERR_INVALID, [])
    }
  }

  func migrate(from schema: UInt32, state: [UInt8], limit: Int, context: HostContext)
    -> (pb_status, [UInt8]?)
  {
    (PB_ERR_UNSUPPORTED, nil)
  }

  /// Why `action` cannot apply to this plugin (a control or preset it lacks); nil when it can.
  func problem(with action: LV2Action) -> String? {
    switch action {
    case .set(let port, _) where self.controls.index(of: port) == nil:
      return "<\(self.info.uri)> has no control input '\(port)': its controls are "
        + self.controls.symbols
    case .preset(let name):
      do throws(LV2Error) { _ = try self.info.presetValues(name) } catch {
        return error.description
      }
      return nil
    default:
      return nil
    }
  }
}
