import Patchbay
import PatchbayABI
import PatchbayEncoding
import Synchronization

/// A live instance of a plugin feature, seen from the host: send it actions, read its state,
/// render it.
///
/// ```swift
/// let counter = try FeatureHandle(feature: registry["dev.patchbay.counter"]!)
/// try counter.send(text: "setStep(by: 5)")
/// try counter.send(text: "increment")
/// try counter.stateJSON()  // {"count":5,"step":5,"pending":0}
/// try counter.render()     // "Count: 5\nStep:  5"
/// ```
///
/// Actions — from the host, and from the plugin's effects through `host->send` — go through one
/// serial FIFO queue (the instance's [main-thread]); `snapshot`, `render` and `cancelEffects`
/// are serialized with it. An action the plugin cannot decode is refused with the plugin's
/// reason, reported to ``onFailure`` and kept in ``failures``; the state stays as it was.
public final class FeatureHandle: @unchecked Sendable {
  public let feature: LoadedFeature
  private let context: HostContext
  private let host: UnsafePointer<pb_host>
  private let instance: UnsafeMutableRawPointer
  private let queue: InstanceQueue
  private let failureLog = LockedValue<[String]>([])
  private let failureHandler = LockedValue<(@Sendable (String) -> Void)?>(nil)
  private let reducedHandler = LockedValue<(@Sendable ([UInt8], ActionSource) -> Void)?>(nil)
  /// Action texts already parsed by this plugin generation: parsing is pure, and scripts and
  /// people send the same few actions again and again.
  private let parsedActions = LockedValue<[String: [UInt8]]>([:])
  private let effectsMuted = EffectSwitch()

  /// Creates an instance: from the feature's initial state, or from snapshot bytes of its
  /// current schema. Throws the plugin's reason when `create` fails.
  public init(
    feature: LoadedFeature,
    restoring state: [UInt8]? = nil,
    log: @escaping @Sendable (pb_log_level, String) -> Void = { _, _ in }
  ) throws(FeatureCallError) {
    self.feature = feature
    let context = HostContext(log: log)
    let host = HostTable.make(context)
    let created: UnsafeMutableRawPointer? =
      if let state {
        state.withUnsafeBufferPointer {
          feature.vtable.create(feature.descriptor, host, $0.baseAddress ?? emptyBytes, $0.count)
        }
      } else {
        feature.vtable.create(feature.descriptor, host, nil, 0)
      }
    guard let created else {
      throw FeatureCallError(
        featureID: feature.id, call: "create",
        reason: context.takeErrors() ?? "the plugin returned NULL without a reason"
      )
    }
    self.context = context
    self.host = host
    self.instance = created
    let vtable = feature.vtable
    let failures = self.failureLog
    let handler = self.failureHandler
    let instance = UncheckedPointer(created)
    let reducedHandler = self.reducedHandler
    self.queue = InstanceQueue { bytes, source in
      let status = bytes.withUnsafeBufferPointer {
        vtable.reduce(instance.pointer, $0.baseAddress, $0.count)
      }
      guard status == PB_OK else {
        let reason = context.takeErrors() ?? "status \(status.rawValue)"
        let message = "\(feature.id): reduce failed: \(reason)"
        failures.withValue { $0.append(message) }
        handler.value?(message)
        return false
      }
      reducedHandler.value?(bytes, source)
      return true
    }
    context.setSendTarget { [queue = self.queue, muted = self.effectsMuted] bytes in
      guard !muted.isMuted else { return }
      queue.send(bytes, source: .effect)
    }
  }

  deinit {
    self.context.setSendTarget(nil)
    let (vtable, instance) = (self.feature.vtable, self.instance)
    self.queue.withInstance {
      vtable.cancel_effects(instance)
      vtable.destroy(instance)
    }
  }

  /// How many actions the instance has reduced.
  public var reducedCount: UInt64 { self.queue.reducedCount }

  /// Whether the instance is quiet: nothing queued or being reduced, and no effect of its
  /// plugin running (as the plugin's optional `running_effects` reports; 0 without it).
  public var isQuiet: Bool {
    guard self.queue.isIdle else { return false }
    guard let running = self.feature.vtable.running_effects else { return true }
    return running(self.instance) == 0 && self.queue.isIdle
  }

  /// Reasons for actions the plugin refused, in order.
  public var failures: [String] { self.failureLog.value }

  /// Called with each refused action's reason, on the thread that reduced it.
  public func onFailure(_ handler: (@Sendable (String) -> Void)?) {
    self.failureHandler.value = handler
  }

  /// Called after each action the instance reduced, in order, with where it came from; on
  /// the thread that reduced it, with the instance busy (do not call back into this handle;
  /// ``stateDuringCallback()`` is the one call allowed).
  public func onReduced(_ handler: (@Sendable ([UInt8], ActionSource) -> Void)?) {
    self.reducedHandler.value = handler
  }

  /// The state, read from inside an ``onReduced(_:)`` callback, where the instance is already
  /// held by the reducing thread. Anywhere else, use ``stateValue()``.
  public func stateDuringCallback() -> WireValue? {
    let (status, bytes) = ByteSink.collect { self.feature.vtable.snapshot(self.instance, $0) }
    guard status == PB_OK else { return nil }
    return try? WireValue(decoding: bytes)
  }

  /// Where the instance's navigation requests go (an app runtime); nil logs them.
  public func onNavigationRequest(_ handler: (@Sendable (NavigationRequest) -> Void)?) {
    self.context.setNavigationTarget(handler)
  }

  /// Drops every action the plugin's effects send from now on: replaying a recording feeds
  /// the effects' recorded actions instead.
  public func muteEffects() {
    self.effectsMuted.mute()
  }

  /// Sends encoded action bytes. [thread-safe]
  public func send(_ action: [UInt8]) {
    self.queue.send(action, source: .command)
  }

  /// Sends encoded action bytes as if an effect had sent them (for replay).
  public func send(_ action: [UInt8], as source: ActionSource) {
    self.queue.send(action, source: source)
  }

  /// Parses the text form of an action and sends it; throws the plugin's reason when the
  /// text is not an action of this feature.
  public func send(text: String) throws(FeatureCallError) {
    self.send(try self.parseAction(text))
  }

  /// The encoding of an action's text form.
  public func parseAction(_ text: String) throws(FeatureCallError) -> [UInt8] {
    if let bytes = self.parsedActions.withValue({ $0[text] }) { return bytes }
    let bytes = try self.feature.parseAction(text, context: self.context, host: self.host)
    self.parsedActions.withValue { cache in
      if cache.count >= 256 { cache.removeAll(keepingCapacity: true) }
      cache[text] = bytes
    }
    return bytes
  }

  /// The text form of encoded action bytes.
  public func formatAction(_ bytes: [UInt8]) throws(FeatureCallError) -> String {
    try self.feature.formatAction(bytes, context: self.context, host: self.host)
  }

  /// The state's snapshot bytes (value encoding).
  public func snapshot() throws(FeatureCallError) -> [UInt8] {
    let (vtable, instance, context) = (self.feature.vtable, self.instance, self.context)
    let (status, bytes) = self.queue.withInstance {
      ByteSink.collect { vtable.snapshot(instance, $0) }
    }
    guard status == PB_OK else {
      throw FeatureCallError(
        featureID: self.feature.id, call: "snapshot",
        reason: context.takeErrors() ?? "status \(status.rawValue)"
      )
    }
    return bytes
  }

  /// The state as a value.
  public func stateValue() throws(FeatureCallError) -> WireValue {
    let bytes = try self.snapshot()
    do {
      return try WireValue(decoding: bytes)
    } catch {
      throw FeatureCallError(
        featureID: self.feature.id, call: "snapshot",
        reason: "the plugin wrote bytes that are not a value: \(error)"
      )
    }
  }

  /// The state as JSON.
  public func stateJSON(pretty: Bool = false) throws(FeatureCallError) -> String {
    try self.stateValue().json(pretty: pretty)
  }

  /// The instance's view text.
  public func render() throws(FeatureCallError) -> String {
    let (vtable, instance, context) = (self.feature.vtable, self.instance, self.context)
    let (status, bytes) = self.queue.withInstance {
      ByteSink.collect { vtable.render(instance, $0) }
    }
    guard status == PB_OK else {
      throw FeatureCallError(
        featureID: self.feature.id, call: "render",
        reason: context.takeErrors() ?? "status \(status.rawValue)"
      )
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// Cancels the instance's effects; the state is kept.
  public func cancelEffects() {
    let (vtable, instance) = (self.feature.vtable, self.instance)
    self.queue.withInstance { vtable.cancel_effects(instance) }
  }
}

extension LoadedFeature {
  /// Parses an action's text form with a throwaway host table.
  public func parseAction(_ text: String) throws(FeatureCallError) -> [UInt8] {
    let context = HostContext { _, _ in }
    return try self.parseAction(text, context: context, host: HostTable.make(context))
  }

  /// Formats action bytes with a throwaway host table.
  public func formatAction(_ bytes: [UInt8]) throws(FeatureCallError) -> String {
    let context = HostContext { _, _ in }
    return try self.formatAction(bytes, context: context, host: HostTable.make(context))
  }

  /// Turns snapshot bytes of an older state schema into bytes of this feature's schema.
  public func migrate(from schema: UInt32, state: [UInt8]) throws(FeatureCallError) -> [UInt8] {
    guard let migrate = self.vtable.migrate else {
      throw FeatureCallError(
        featureID: self.id, call: "migrate",
        reason: "the feature has no migrate function, so it cannot restore state of schema "
          + "\(schema) into schema \(self.schemaVersion)"
      )
    }
    let context = HostContext { _, _ in }
    let host = HostTable.make(context)
    let (status, bytes) = ByteSink.collect { out in
      state.withUnsafeBufferPointer {
        migrate(self.descriptor, host, schema, $0.baseAddress, $0.count, out)
      }
    }
    guard status == PB_OK else {
      throw FeatureCallError(
        featureID: self.id, call: "migrate",
        reason: context.takeErrors() ?? "status \(status.rawValue)"
      )
    }
    return bytes
  }

  func parseAction(
    _ text: String, context: HostContext, host: UnsafePointer<pb_host>
  ) throws(FeatureCallError) -> [UInt8] {
    let (status, bytes) = ByteSink.collect { out in
      Array(text.utf8).withUnsafeBufferPointer { buffer in
        buffer.withMemoryRebound(to: CChar.self) {
          self.vtable.parse_action(self.descriptor, host, $0.baseAddress, $0.count, out)
        }
      }
    }
    guard status == PB_OK else {
      throw FeatureCallError(
        featureID: self.id, call: "parse_action",
        reason: context.takeErrors() ?? "'\(text)' is not an action of this feature"
      )
    }
    return bytes
  }

  func formatAction(
    _ action: [UInt8], context: HostContext, host: UnsafePointer<pb_host>
  ) throws(FeatureCallError) -> String {
    let (status, bytes) = ByteSink.collect { out in
      action.withUnsafeBufferPointer {
        self.vtable.format_action(self.descriptor, host, $0.baseAddress, $0.count, out)
      }
    }
    guard status == PB_OK else {
      throw FeatureCallError(
        featureID: self.id, call: "format_action",
        reason: context.takeErrors() ?? "the bytes are not an action of this feature"
      )
    }
    return String(decoding: bytes, as: UTF8.self)
  }
}

/// A valid pointer for an empty state, so `create` can tell "restore nothing" from "no state".
nonisolated(unsafe) private let emptyBytes: UnsafePointer<UInt8> = {
  let pointer = UnsafeMutablePointer<UInt8>.allocate(capacity: 1)
  pointer.initialize(to: 0)
  return UnsafePointer(pointer)
}()

/// An instance pointer, shared with the queue that alone calls into it.
struct UncheckedPointer: @unchecked Sendable {
  let pointer: UnsafeMutableRawPointer
  init(_ pointer: UnsafeMutableRawPointer) { self.pointer = pointer }
}

/// Whether a feature's effects are heard: muted for replays.
final class EffectSwitch: Sendable {
  private let muted = Atomic<Bool>(false)
  var isMuted: Bool { self.muted.load(ordering: .relaxed) }
  func mute() { self.muted.store(true, ordering: .relaxed) }
}
