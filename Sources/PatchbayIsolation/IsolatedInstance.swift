import CPatchbayChannel
import CPatchbayCrash
import Foundation
import PatchbayABI
import PatchbayAppQueue
import PatchbayLoader

/// An instance living in an isolated plugin's process. It keeps the state the plugin had
/// after its last completed action (the reply to each `reduce` carries it), so when the
/// process crashes or hangs, the plugin's new process creates the instance again from it.
///
/// Called on its owner's executor. What a restart reads and changes (its last state, whether
/// it is broken, its running effects) is owned by its plugin's executor, where every call and
/// every restart runs.
final class IsolatedInstance: PluginInstance {
  let feature: IsolatedFeature
  let id: UInt64
  let context: HostContext
  let label: String?
  private let storage: ExecutorOwned<Kept>

  struct Kept {
    var state: [UInt8]?
    var broken: String?
    var running = RunningEffects()
  }

  /// What the plugin's executor owns. [plugin executor]
  private var kept: Kept {
    unsafeAddress { self.storage.address }
    unsafeMutableAddress { self.storage.mutableAddress }
  }

  /// The snapshot after the last completed action; what a new process starts it from.
  /// [plugin executor]
  var lastState: [UInt8]? {
    get { self.kept.state }
    set { self.kept.state = newValue }
  }
  /// Reads or changes the actions whose effects still run, with the states they were reduced
  /// on: what a new process starts the effects again from. [plugin executor]
  func withRunningEffects<T>(_ body: (inout RunningEffects) -> T) -> T {
    body(&self.kept.running)
  }
  /// Why the instance cannot run any more: its new process refused its last state.
  /// [plugin executor]
  var broken: String? {
    get { self.kept.broken }
    set { self.kept.broken = newValue }
  }
  /// The report of a crash or hang in the last call, until the host takes it.
  private var crash: String?

  func takeCrash() -> String? {
    defer { self.crash = nil }
    return self.crash
  }

  init(
    feature: IsolatedFeature, id: UInt64, context: HostContext, state: [UInt8]?, label: String?
  ) {
    self.feature = feature
    self.id = id
    self.context = context
    self.storage = ExecutorOwned(
      Kept(state: state), by: feature.plugin.executor, what: "IsolatedInstance")
    self.label = label
  }

  private var plugin: IsolatedPlugin { self.feature.plugin }
  private var limit: UInt64 { UInt64(self.plugin.options.limits.stateBytes) }

  /// The request that creates it in a process, from ``lastState``.
  func writeCreate(_ out: inout WireWriter) {
    out.put(IsolatedCall.create.rawValue)
    out.put(self.id)
    out.put(self.feature.index)
    out.put(optional: self.lastState)
    out.put(self.limit)
    out.put(self.label ?? "")
  }

  /// One call on this instance: nil, with the reason reported, when it could not be made.
  /// `after` runs on the plugin's executor with the call's status and result, before the
  /// next call can start.
  private func call<Result>(
    _ name: String, _ kind: IsolatedCall, write: (inout WireWriter) -> Void = { _ in },
    read: (inout WireReader) throws -> Result,
    after: (pb_status, Result) -> Void = { _, _ in }
  ) -> (pb_status, Result)? {
    let reply = self.plugin.executor.sync {
      () -> Swift.Result<IsolatedPlugin.Reply<Result>, IsolationError> in
      if let broken = self.broken { return .failure(IsolationError(broken)) }
      let reply = self.plugin.call(name) { out in
        out.put(kind.rawValue)
        out.put(self.id)
        write(&out)
      } read: { (reader: inout WireReader) throws -> Result in
        try read(&reader)
      }
      if case .success(let reply) = reply { after(reply.status, reply.result) }
      return reply
    }
    switch reply {
    case .success(let reply):
      apply(reply.notes, to: self.context)
      return (reply.status, reply.result)
    case .failure(let error):
      self.context.report(error.description)
      if error.isCrash { self.crash = error.description }
      return nil
    }
  }

  func reduce(_ action: [UInt8]) -> pb_status {
    var before: [UInt8]?
    let result = self.call("reduce", .reduce) {
      before = self.lastState
      $0.put(self.limit)
      $0.put(bytes: action)
      // The action's text when it came as text (a script's, the terminal's): crash reports
      // name it.
      $0.put(pb_crash_action().map { String(cString: $0) } ?? "")
    } read: {
      (try $0.optionalBytes(), try $0.optionalBytes())
    } after: { status, reply in
      let (snapshot, origins) = reply
      if status == PB_OK, let snapshot { self.kept.state = snapshot }
      self.kept.running.update(origins, reduced: action, on: before)
    }
    return result?.0 ?? PB_ERR_FAILED
  }

  /// A disabled plugin's instance keeps its last state: the app's state stays whole, and a
  /// swap to a fixed build migrates from it.
  func snapshot(limit: Int) -> (pb_status, [UInt8]?) {
    let kept = self.plugin.executor.sync {
      self.plugin.owned.disabledReason != nil ? self.lastState : nil
    }
    if let kept { return (PB_OK, kept) }
    return self.call("snapshot", .snapshot, write: { $0.put(UInt64(limit)) }) {
      try $0.optionalBytes()
    } ?? (PB_ERR_FAILED, [])
  }

  /// A disabled plugin's instance shows why, in place of its screen.
  func render(limit: Int) -> (pb_status, [UInt8]?) {
    let disabled = self.plugin.executor.sync { self.plugin.owned.disabledReason ?? self.broken }
    if let disabled {
      return (PB_OK, Array("⚠ \(disabled)".utf8))
    }
    return self.call("render", .render, write: { $0.put(UInt64(limit)) }) {
      try $0.optionalBytes()
    } ?? (PB_ERR_FAILED, [])
  }

  /// The effects running in its process, plus one while something this instance said (an
  /// effect's last send) is still on its way here: the process answers after it wrote the
  /// send, but the host's reader may not have delivered it yet. Another instance's notes in
  /// the same process do not count.
  var runningEffects: Int {
    let answer = self.call("running_effects", .runningEffects) { reply in
      let running = Int(try reply.read(UInt64.self))
      let hasSaid = try reply.read(UInt8.self) != 0
      let mark = try reply.read(UInt32.self)
      return (running: running, ringMark: hasSaid ? mark : nil)
    }?.1
    guard let answer else { return 0 }
    let inFlight = answer.ringMark.map { !self.plugin.hasDelivered(upTo: $0) } ?? false
    return answer.running + (inFlight ? 1 : 0)
  }

  func cancelEffects() {
    _ = self.call("cancel_effects", .cancelEffects) { _ in }
  }

  var cancelsByKey: Bool { self.feature.cancelsByKey }

  func cancelEffects(key: String) {
    _ = self.call("cancel_effects_keyed", .cancelEffectsKeyed, write: { $0.put(key) }) { _ in }
  }

  func resumeEffects() -> pb_status {
    self.call("resume_effects", .resumeEffects) { _ in }?.0 ?? PB_ERR_FAILED
  }

  func destroy() {
    _ = self.call("destroy", .destroy) { _ in }
    self.plugin.forget(self.id)
  }

  /// The request that creates its processor in a process.
  func writeCreateProcessor(_ out: inout WireWriter, config: pb_processor_config) {
    out.put(IsolatedCall.createProcessor.rawValue)
    out.put(self.id)
    out.put(self.feature.index)
    out.put(config.sample_rate)
    out.put(config.channel_count)
    out.put(config.max_frame_count)
  }

  func createProcessor(_ config: pb_processor_config, offline: Bool) -> UnsafeMutableRawPointer? {
    guard let info = self.feature.description.processor,
      self.plugin.executor.sync({ self.broken == nil })
    else { return nil }
    guard config.max_frame_count <= PB_CHANNEL_MAX_FRAMES,
      config.channel_count <= PB_CHANNEL_MAX_CHANNELS
    else {
      self.context.report(
        "an isolated processor takes periods of at most \(PB_CHANNEL_MAX_FRAMES) frames and "
          + "\(PB_CHANNEL_MAX_CHANNELS) channels; use a smaller period, or do not isolate it")
      return nil
    }
    return self.plugin.createProcessor(
      for: self, config: config, offline: offline, parameterSize: info.parameterSize
    ).map { UnsafeMutableRawPointer($0.pointer) }
  }

  func writeParameters(_ block: UnsafeMutableRawPointer) {
    guard let size = self.feature.description.processor?.parameterSize, size > 0 else { return }
    let result = self.call("write_parameters", .writeParameters, write: { $0.put(size) }) {
      try $0.bytes()
    }
    guard let (_, bytes) = result, bytes.count == Int(size) else { return }
    bytes.withUnsafeBytes { block.copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
  }

  func eventAction(_ event: pb_processor_event) -> (pb_status, [UInt8]) {
    self.call("event_action", .eventAction) {
      $0.put(event.frame)
      $0.put(event.kind)
      $0.put(event.value)
      $0.put(event.time)
    } read: {
      try $0.bytes()
    } ?? (PB_ERR_FAILED, [])
  }
}
