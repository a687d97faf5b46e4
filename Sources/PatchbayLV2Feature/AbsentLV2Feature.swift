import PatchbayABI
import PatchbayEncoding
import PatchbayLoader

/// An optional LV2 feature (`optional = true`) whose plugin is not installed: the node stays in
/// the tree, silent, with an empty state, and every action to it is refused naming what is
/// missing. The app runs as it would without it.
///
/// ```toml
/// [[feature]]
/// key = "compressor"
/// lv2 = "http://gareus.org/oss/lv2/darc#stereo"
/// optional = true      # without x42-plugins: one line at start, and the studio plays on
/// ```
final class AbsentLV2Feature: FeatureCode, @unchecked Sendable {
  /// Why it is absent, with what to install.
  let reason: String
  let processor: pb_processor_desc? = nil
  let crashLabel: UnsafePointer<CChar>
  var migrates: Bool { false }
  var cancelsByKey: Bool { false }

  init(uri: String, reason: String) {
    self.reason = reason
    self.crashLabel = UnsafePointer(strdup("\(uri) (not installed)")!)
  }

  func create(state: [UInt8]?, context: HostContext, label: CrashLabel?) -> (any PluginInstance)? {
    Instance(reason: self.reason, context: context)
  }

  func parseAction(_ text: String, context: HostContext) -> (pb_status, [UInt8]) {
    context.report(self.reason)
    return (PB_ERR_DECODE, [])
  }

  func formatAction(_ action: [UInt8], context: HostContext) -> (pb_status, [UInt8]) {
    context.report(self.reason)
    return (PB_ERR_DECODE, [])
  }

  func migrate(from schema: UInt32, state: [UInt8], limit: Int, context: HostContext)
    -> (pb_status, [UInt8]?)
  {
    (PB_ERR_UNSUPPORTED, nil)
  }

  /// An empty state, and a refusal for every action.
  private final class Instance: PluginInstance {
    let reason: String
    let context: HostContext

    init(reason: String, context: HostContext) { (self.reason, self.context) = (reason, context) }

    func reduce(_ action: [UInt8]) -> pb_status {
      self.context.report(self.reason)
      return PB_ERR_DECODE
    }

    func snapshot(limit: Int) -> (pb_status, [UInt8]?) { (PB_OK, WireValue.record([]).bytes) }
    func render(limit: Int) -> (pb_status, [UInt8]?) { (PB_OK, Array("not installed".utf8)) }
    var runningEffects: Int { 0 }
    var effectCount: Int? { 0 }
    func cancelEffects() {}
    func destroy() {}
    func createProcessor(_ config: pb_processor_config, offline: Bool) -> UnsafeMutableRawPointer? {
      nil
    }
    func writeParameters(_ block: UnsafeMutableRawPointer) {}
    func eventAction(_ event: pb_processor_event) -> (pb_status, [UInt8]) {
      (PB_ERR_UNSUPPORTED, [])
    }
  }
}
