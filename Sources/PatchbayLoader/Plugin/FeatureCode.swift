import PatchbayABI

/// A feature's code, as the host calls it: the calls of `pb_feature_vtable` and
/// `pb_processor_desc` (patchbay/core.h, patchbay/process.h), in Swift. Everything else in the
/// host — ``FeatureHandle``, the swap, navigation, the audio graph — talks to a feature
/// through this protocol and ``PluginInstance``, never through the vtable.
///
/// ```swift
/// let code = feature.code                          // in this process: InProcessFeature
/// let (_, bytes) = code.parseAction("increment", context: context)
/// let instance = code.create(state: nil, context: context, label: nil)!
/// instance.reduce(bytes)                           // PB_OK
/// instance.snapshot(limit: 65_536)                 // (PB_OK, the state's bytes)
/// ```
///
/// ``InProcessFeature`` is the conformance for a library loaded with `dlopen`. Every call
/// runs on the executor that owns `context`; what the plugin reports with `host->error`
/// during it is in `context.takeErrors()` after it. Writers take at most `limit` bytes: past
/// it the bytes are nil, whatever the status.
package protocol FeatureCode: AnyObject, Sendable {
  /// The processor's descriptor, checked at load; nil for a feature without sound. The
  /// audio thread calls its `process` (and the graph its `destroy`) directly: a C call, so
  /// the realtime path has no Swift dispatch in it.
  var processor: pb_processor_desc? { get }
  /// Whether its processor reads the mix and writes over it (an effect): it plays last.
  var processorInserts: Bool { get }
  /// Whether the feature can migrate state of another schema.
  var migrates: Bool { get }
  /// Whether its instances cancel effects by key (`cancel_effects_keyed`, ABI 2.4): then the
  /// effects of an instance a swap replaced go on, reachable by the new code's cancellations.
  var cancelsByKey: Bool { get }
  /// "id (original file)": what crash and hang reports name. Lives as long as the process.
  var crashLabel: UnsafePointer<CChar> { get }

  /// A new instance, from the initial state or from snapshot bytes; nil when the plugin
  /// refused (its reason is in `context`). `label` names the instance in crash reports.
  func create(state: [UInt8]?, context: HostContext, label: CrashLabel?) -> (any PluginInstance)?
  /// The encoding of an action's text form.
  func parseAction(_ text: String, context: HostContext) -> (pb_status, [UInt8])
  /// The text form of encoded action bytes.
  func formatAction(_ action: [UInt8], context: HostContext) -> (pb_status, [UInt8])
  /// Snapshot bytes of schema `schema`, as bytes of this feature's schema.
  func migrate(from schema: UInt32, state: [UInt8], limit: Int, context: HostContext)
    -> (pb_status, [UInt8]?)
}

/// One live instance of a feature's code: the vtable's calls on an instance, and the calls
/// its processor gets on the app queue (`create`, `write_parameters`, `event_action`).
/// Called only on the executor that owns the instance, one call at a time.
package protocol PluginInstance: AnyObject {
  func reduce(_ action: [UInt8]) -> pb_status
  /// ``reduce(_:)`` as a C call the host can make itself, for code in this process; nil for
  /// an instance in another process.
  var directReduce: DirectReduce? { get }
  func snapshot(limit: Int) -> (pb_status, [UInt8]?)
  /// Right after a reduce, the record of the top-level state fields it changed (the optional
  /// `changed_fields`, ABI 2.7); PB_ERR_UNSUPPORTED without it.
  func changedFields(limit: Int) -> (pb_status, [UInt8]?)
  func render(limit: Int) -> (pb_status, [UInt8]?)
  /// How many effects run now (the optional `running_effects`; 0 without it).
  var runningEffects: Int { get }
  /// ``runningEffects`` where asking costs no more than a call in this process; nil where it
  /// would be a round trip to another one, or the plugin has no `running_effects`.
  var effectCount: Int? { get }
  func cancelEffects()
  /// Cancels the effects filed under `key`, the stable text of a cancellation id that a later
  /// generation cancelled (the optional `cancel_effects_keyed`; nothing without it).
  func cancelEffects(key: String)
  /// Whether ``cancelEffects(key:)`` does anything (the plugin has `cancel_effects_keyed`, and
  /// so reports its own cancellations through "patchbay.effects/1").
  var cancelsByKey: Bool { get }
  /// Starts the long-lived effects the state calls for, in an instance created from another
  /// generation's state (the optional `resume_effects`): PB_OK when it did,
  /// PB_ERR_UNSUPPORTED when it has none (then the earlier generation's effects go on).
  func resumeEffects() -> pb_status
  /// The actions whose effects still run, as the optional `effect_origins` writes them (ABI
  /// 2.5); nil without it.
  func effectOrigins() -> [UInt8]?
  /// Starts again the effects `effects` that `action` started on `state` (the optional
  /// `restart_effects`, ABI 2.5); PB_ERR_UNSUPPORTED without it.
  func restartEffects(state: [UInt8], action: [UInt8], effects: [UInt32]) -> pb_status
  /// Cancels the effects and frees the instance. The last call.
  func destroy()

  /// The processor's instance for this period format; nil when it refused. `offline`: its
  /// periods are rendered to a file, not a device, so each may take as long as it takes (a
  /// processor in another process is then waited for, however late: the render stays
  /// byte-identical).
  func createProcessor(_ config: pb_processor_config, offline: Bool) -> UnsafeMutableRawPointer?
  /// Writes the parameter block for the state now.
  func writeParameters(_ block: UnsafeMutableRawPointer)
  /// The action an event the processor pushed stands for; `PB_ERR_UNSUPPORTED` for none.
  func eventAction(_ event: pb_processor_event) -> (pb_status, [UInt8])

  /// Whether the last reduce changed what only a new processor takes (once): the graph makes one.
  func takeProcessorRestart() -> Bool

  /// After a failed call: the crash or hang report, when the call failed because the code
  /// crashed or hung (and was started again), once; nil otherwise. Code in this process
  /// never says so: its crash ends the process.
  func takeCrash() -> String?

  /// How many calls its code crashed or hung in, and went on (a WebAssembly trap; the
  /// instance rebuilt from before the call): `validate` fails a test that sees one.
  var crashes: Int { get }
}

extension FeatureCode {
  package var processorInserts: Bool { false }
}

extension PluginInstance {
  package var directReduce: DirectReduce? { nil }
  package func takeCrash() -> String? { nil }
  package var crashes: Int { 0 }
  package func takeProcessorRestart() -> Bool { false }
  package func cancelEffects(key: String) {}
  package var cancelsByKey: Bool { false }
  package func resumeEffects() -> pb_status { PB_ERR_UNSUPPORTED }
  package func effectOrigins() -> [UInt8]? { nil }
  package func changedFields(limit: Int) -> (pb_status, [UInt8]?) { (PB_ERR_UNSUPPORTED, nil) }
  package var effectCount: Int? { nil }
  package func restartEffects(state: [UInt8], action: [UInt8], effects: [UInt32]) -> pb_status {
    PB_ERR_UNSUPPORTED
  }
}
