import CPatchbayChannel
import Foundation
import PatchbayABI
import PatchbayLoader

/// A feature whose code runs in an isolated plugin's process: each ``FeatureCode`` call is a
/// call across the channel (``IsolatedPlugin/call(_:write:read:)``), and what the plugin said
/// during it is replayed into the caller's context. The host cannot tell it from a feature
/// loaded here, except that a crash or a hang in it fails the call instead of ending the app.
///
/// `@unchecked Sendable`: immutable.
final class IsolatedFeature: FeatureCode, @unchecked Sendable {
  let plugin: IsolatedPlugin
  let index: UInt32
  let description: PluginDescription.Feature
  let crashLabel: UnsafePointer<CChar>

  init(plugin: IsolatedPlugin, index: UInt32, description: PluginDescription.Feature) {
    self.plugin = plugin
    self.index = index
    self.description = description
    self.crashLabel = UnsafePointer(strdup("\(description.id) (\(plugin.file), isolated)")!)
    self.processor = description.processor.map {
      pb_processor_desc(
        struct_size: UInt32(MemoryLayout<pb_processor_desc>.size),
        parameter_size: $0.parameterSize, max_output_events: $0.maxOutputEvents,
        write_parameters: $0.writesParameters ? pb_isolated_write_parameters : nil, create: nil,
        process: pb_isolated_process, destroy: pb_isolated_destroy,
        event_action: $0.turnsEventsIntoActions ? pb_isolated_event_action : nil,
        max_midi_output: $0.maxMIDIOutput ?? 0)
    }
  }

  /// The processor the audio thread calls: `pb_isolated_process`, which hands each period to
  /// the plugin's process (``IsolatedProcessor``).
  let processor: pb_processor_desc?
  var processorInserts: Bool { self.description.processor?.inserts ?? false }
  var migrates: Bool { self.description.migrates }
  var cancelsByKey: Bool { self.description.cancelsByKey ?? false }

  func create(state: [UInt8]?, context: HostContext, label: CrashLabel?) -> (any PluginInstance)? {
    let instance = IsolatedInstance(
      feature: self, id: self.plugin.newInstanceID(), context: context, state: state,
      label: label?.pointer.map { String(cString: $0) })
    let reply = self.plugin.call(
      "create", write: { instance.writeCreate(&$0) }, read: { try $0.optionalBytes() })
    switch reply {
    case .success(let reply):
      apply(reply.notes, to: context)
      guard reply.status == PB_OK else { return nil }
      self.plugin.executor.sync {
        if let snapshot = reply.result { instance.lastState = snapshot }
        self.plugin.register(instance)
      }
      return instance
    case .failure(let error):
      context.report(error.description)
      return nil
    }
  }

  func parseAction(_ text: String, context: HostContext) -> (pb_status, [UInt8]) {
    self.detachedCall("parse_action", context: context) {
      $0.put(IsolatedCall.parseAction.rawValue)
      $0.put(self.index)
      $0.put(bytes: Array(text.utf8))
    } read: {
      try $0.bytes()
    } ?? (PB_ERR_FAILED, [])
  }

  func formatAction(_ action: [UInt8], context: HostContext) -> (pb_status, [UInt8]) {
    self.detachedCall("format_action", context: context) {
      $0.put(IsolatedCall.formatAction.rawValue)
      $0.put(self.index)
      $0.put(bytes: action)
    } read: {
      try $0.bytes()
    } ?? (PB_ERR_FAILED, [])
  }

  func migrate(from schema: UInt32, state: [UInt8], limit: Int, context: HostContext)
    -> (pb_status, [UInt8]?)
  {
    guard self.migrates else { return (PB_ERR_UNSUPPORTED, nil) }
    return self.detachedCall("migrate", context: context) {
      $0.put(IsolatedCall.migrate.rawValue)
      $0.put(self.index)
      $0.put(schema)
      $0.put(UInt64(limit))
      $0.put(bytes: state)
    } read: {
      try $0.optionalBytes()
    } ?? (PB_ERR_FAILED, [])
  }

  /// A call without an instance; nil (with the reason reported) when the process failed.
  private func detachedCall<Result>(
    _ name: String, context: HostContext, write: (inout WireWriter) -> Void,
    read: (inout WireReader) throws -> Result
  ) -> (pb_status, Result)? {
    switch self.plugin.call(name, write: write, read: read) {
    case .success(let reply):
      apply(reply.notes, to: context)
      return (reply.status, reply.result)
    case .failure(let error):
      context.report(error.description)
      return nil
    }
  }
}
