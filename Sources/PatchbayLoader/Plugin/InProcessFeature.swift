import Foundation
import PatchbayABI

/// A feature's code in this process: the vtable of a library loaded with `dlopen`, called
/// directly, each call noted for crash reports (``CrashNote``).
///
/// `@unchecked Sendable`: it holds pointers into the plugin's descriptors, which are
/// immutable and live as long as the process (plugins are never unloaded).
final class InProcessFeature: FeatureCode, @unchecked Sendable {
  let descriptor: UnsafePointer<pb_feature_desc>
  let vtable: pb_feature_vtable
  let processor: pb_processor_desc?
  /// "id (original file)", for crash reports.
  let crashLabel: UnsafePointer<CChar>

  init(
    descriptor: UnsafePointer<pb_feature_desc>, vtable: pb_feature_vtable,
    processor: pb_processor_desc?, crashLabel: String
  ) {
    self.descriptor = descriptor
    self.vtable = vtable
    self.processor = processor
    self.crashLabel = UnsafePointer(strdup(crashLabel)!)
  }

  var migrates: Bool { self.vtable.migrate != nil }
  var cancelsByKey: Bool { self.vtable.cancel_effects_keyed != nil }

  func create(state: [UInt8]?, context: HostContext, label: CrashLabel?) -> (any PluginInstance)? {
    let host = context.host
    let created: UnsafeMutableRawPointer? = CrashNote.during("create", self.crashLabel) {
      guard let state else { return self.vtable.create(self.descriptor, host, nil, 0) }
      return state.withUnsafeBufferPointer {
        self.vtable.create(self.descriptor, host, $0.baseAddress ?? emptyBytes, $0.count)
      }
    }
    return created.map { InProcessInstance(code: self, host: host, instance: $0, label: label) }
  }

  func parseAction(_ text: String, context: HostContext) -> (pb_status, [UInt8]) {
    let host = context.host
    return CrashNote.during("parse_action", self.crashLabel) {
      ByteSink.collect { out in
        Array(text.utf8).withUnsafeBufferPointer { buffer in
          buffer.withMemoryRebound(to: CChar.self) {
            self.vtable.parse_action(self.descriptor, host, $0.baseAddress, $0.count, out)
          }
        }
      }
    }
  }

  func formatAction(_ action: [UInt8], context: HostContext) -> (pb_status, [UInt8]) {
    let host = context.host
    return CrashNote.during("format_action", self.crashLabel) {
      ByteSink.collect { out in
        action.withUnsafeBufferPointer {
          self.vtable.format_action(self.descriptor, host, $0.baseAddress, $0.count, out)
        }
      }
    }
  }

  func migrate(from schema: UInt32, state: [UInt8], limit: Int, context: HostContext)
    -> (pb_status, [UInt8]?)
  {
    guard let migrate = self.vtable.migrate else { return (PB_ERR_UNSUPPORTED, nil) }
    let host = context.host
    return CrashNote.during("migrate", self.crashLabel) {
      ByteSink.collect(limit: limit) { out in
        state.withUnsafeBufferPointer {
          migrate(self.descriptor, host, schema, $0.baseAddress, $0.count, out)
        }
      }
    }
  }
}

/// An instance of an ``InProcessFeature``: the plugin's instance pointer and its host table.
final class InProcessInstance: PluginInstance {
  let code: InProcessFeature
  let host: UnsafePointer<pb_host>
  let instance: UnsafeMutableRawPointer
  /// The instance's path, for crash reports (its handle's, which outlives a swap).
  let label: CrashLabel?

  init(
    code: InProcessFeature, host: UnsafePointer<pb_host>, instance: UnsafeMutableRawPointer,
    label: CrashLabel?
  ) {
    self.code = code
    self.host = host
    self.instance = instance
    self.label = label
  }

  /// Runs `body` noted as `call` of this instance, for crash reports.
  @inline(__always)
  private func during<R>(_ call: StaticString, _ body: () -> R) -> R {
    CrashNote.during(call, self.code.crashLabel, instance: self.label?.pointer, body)
  }

  func reduce(_ action: [UInt8]) -> pb_status {
    self.direct(action)
  }

  var directReduce: DirectReduce? { self.direct }

  /// The plugin's `reduce`, noted for crash reports as every call here is.
  private var direct: DirectReduce {
    DirectReduce(
      self.code.vtable.reduce, instance: self.instance, feature: self.code.crashLabel,
      label: self.label?.pointer.map { UnsafePointer($0) })
  }

  func snapshot(limit: Int) -> (pb_status, [UInt8]?) {
    self.during("snapshot") {
      ByteSink.collect(limit: limit) { self.code.vtable.snapshot(self.instance, $0) }
    }
  }

  func changedFields(limit: Int) -> (pb_status, [UInt8]?) {
    guard let changed = self.code.vtable.changed_fields else { return (PB_ERR_UNSUPPORTED, nil) }
    return self.during("changed_fields") {
      ByteSink.collect(limit: limit) { changed(self.instance, $0) }
    }
  }

  func render(limit: Int) -> (pb_status, [UInt8]?) {
    self.during("render") {
      ByteSink.collect(limit: limit) { self.code.vtable.render(self.instance, $0) }
    }
  }

  var runningEffects: Int { self.effectCount ?? 0 }

  var effectCount: Int? { self.code.vtable.running_effects.map { Int($0(self.instance)) } }

  func cancelEffects() {
    self.during("cancel_effects") { self.code.vtable.cancel_effects(self.instance) }
  }

  var cancelsByKey: Bool { self.code.cancelsByKey }

  func cancelEffects(key: String) {
    guard let cancel = self.code.vtable.cancel_effects_keyed else { return }
    self.during("cancel_effects_keyed") {
      var key = key
      key.withUTF8 { bytes in
        bytes.withMemoryRebound(to: CChar.self) { cancel(self.instance, $0.baseAddress, $0.count) }
      }
    }
  }

  func resumeEffects() -> pb_status {
    guard let resume = self.code.vtable.resume_effects else { return PB_ERR_UNSUPPORTED }
    return self.during("resume_effects") { resume(self.instance) }
  }

  func effectOrigins() -> [UInt8]? {
    guard let origins = self.code.vtable.effect_origins else { return nil }
    let (status, bytes) = self.during("effect_origins") {
      ByteSink.collect(limit: Int.max) { origins(self.instance, $0) }
    }
    return status == PB_OK ? bytes : nil
  }

  func restartEffects(state: [UInt8], action: [UInt8], effects: [UInt32]) -> pb_status {
    guard let restart = self.code.vtable.restart_effects else { return PB_ERR_UNSUPPORTED }
    return self.during("restart_effects") {
      state.withUnsafeBufferPointer { state in
        action.withUnsafeBufferPointer { action in
          effects.withUnsafeBufferPointer { effects in
            restart(
              self.instance, state.baseAddress, state.count, action.baseAddress, action.count,
              effects.baseAddress, effects.count)
          }
        }
      }
    }
  }

  func destroy() {
    self.during("destroy") {
      self.code.vtable.cancel_effects(self.instance)
      self.code.vtable.destroy(self.instance)
    }
  }

  func createProcessor(_ config: pb_processor_config, offline: Bool) -> UnsafeMutableRawPointer? {
    guard let create = self.code.processor?.create else { return nil }
    var config = config
    return self.during("processor create") { create(self.instance, &config) }
  }

  func writeParameters(_ block: UnsafeMutableRawPointer) {
    self.code.processor?.write_parameters?(self.instance, block)
  }

  func eventAction(_ event: pb_processor_event) -> (pb_status, [UInt8]) {
    guard let eventAction = self.code.processor?.event_action else {
      return (PB_ERR_UNSUPPORTED, [])
    }
    var event = event
    return self.during("event_action") {
      ByteSink.collect { eventAction(self.instance, &event, $0) }
    }
  }
}

/// A valid pointer for an empty state, so `create` can tell "restore nothing" from "no state".
nonisolated(unsafe) private let emptyBytes: UnsafePointer<UInt8> = {
  let pointer = UnsafeMutablePointer<UInt8>.allocate(capacity: 1)
  pointer.initialize(to: 0)
  return UnsafePointer(pointer)
}()
