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
/// are serialized with it. Once an app owns the instance (``AppRuntime``), all of that runs on
/// the app's queue: calls from other threads wait their turn, and effects' actions are
/// enqueued. An action the plugin cannot decode is refused with the plugin's
/// reason, reported to ``onFailure`` and kept in ``failures``; the state stays as it was.
public final class FeatureHandle: @unchecked Sendable {
  /// The feature this handle runs now (a swap changes it).
  public var feature: LoadedFeature { self.slot.current.feature }
  let slot: ImplementationSlot
  let log: @Sendable (pb_log_level, String) -> Void
  let queue: InstanceQueue
  let failureLog = LockedValue<[String]>([])
  /// The instance's path, for crash reports (set by the app that creates it).
  let crashLabel = CrashLabel()
  let failureHandler = LockedValue<(@Sendable (String) -> Void)?>(nil)
  let reducedHandler = LockedValue<(@Sendable ([UInt8], ActionSource) -> Void)?>(nil)
  let navigationHandler = LockedValue<(@Sendable (NavigationRequest) -> Void)?>(nil)
  /// Action texts already parsed by this plugin generation.
  let parsedActions = LockedValue(ParsedActionCache())
  let effectsMuted = EffectSwitch()
  /// The app queue this instance runs on, once an app owns it (see ``attach(to:afterJob:)``).
  /// Set once, by ``attach(to:afterJob:)``; read on every call, so without a lock.
  let app = AtomicLazyReference<AppQueue>()

  /// Creates an instance: from the feature's initial state, or from snapshot bytes of its
  /// current schema. Throws the plugin's reason when `create` fails.
  public init(
    feature: LoadedFeature,
    restoring state: [UInt8]? = nil,
    log: @escaping @Sendable (pb_log_level, String) -> Void = { _, _ in },
    functions: FunctionResolver? = nil
  ) throws(FeatureCallError) {
    let implementation = try Implementation(
      feature: feature, restoring: state, log: log, functions: functions)
    self.log = log
    let slot = ImplementationSlot(implementation)
    self.slot = slot
    let failures = self.failureLog
    let handler = self.failureHandler
    let label = self.crashLabel
    let reducedHandler = self.reducedHandler
    self.queue = InstanceQueue { bytes, source in
      // The queue holds the instance lock here: the slot cannot change under us.
      let current = slot.currentWhileHoldingInstance
      let status = CrashNote.during("reduce", current.feature.crashLabel, instance: label.pointer) {
        bytes.withUnsafeBufferPointer {
          current.feature.vtable.reduce(current.instance, $0.baseAddress, $0.count)
        }
      }
      guard status == PB_OK else {
        let reason = current.context.takeErrors() ?? "status \(status.rawValue)"
        let message = "\(current.feature.id): reduce failed: \(reason)"
        failures.withValue { $0.append(message) }
        handler.value?(message)
        return false
      }
      reducedHandler.value?(bytes, source)
      return true
    }
    self.connect(implementation)
  }

  /// Points an implementation's effects and navigation requests at this handle.
  func connect(_ implementation: Implementation) {
    implementation.context.setSendTarget {
      [weak self, queue = self.queue, muted = self.effectsMuted] bytes in
      guard !muted.isMuted else { return }
      // An effect on another thread: its action waits its turn on the app queue.
      if let app = self?.app.load(), !app.executor.isCurrent {
        app.executor.enqueue {
          guard !muted.isMuted else { return }
          queue.send(bytes, source: .effect)
          app.afterJob()
        }
      } else {
        queue.send(bytes, source: .effect)
      }
    }
    implementation.context.setNavigationTarget(self.navigationHandler.value)
    if let app = self.app.load() {
      implementation.context.reportsOutsideCalls { !app.executor.isCurrent }
    }
  }

  /// Hands the instance to an app: from now on every call into it runs on `executor` (the
  /// app's `[main-thread]`, core.h): sends and reads from other threads wait for their turn,
  /// effects' actions are enqueued, and `afterJob` runs after each job that reduced here.
  func attach(
    to executor: AppExecutor, limits: OutputLimits = .standard,
    afterJob: @escaping @Sendable () -> Void
  ) {
    _ = self.app.storeIfNil(AppQueue(executor: executor, limits: limits, afterJob: afterJob))
    // Every call into the plugin runs on the executor now: an error reported on another
    // thread belongs to no call.
    self.slot.current.context.reportsOutsideCalls { !executor.isCurrent }
  }

  /// How much the instance may write: its app's `[limits]`, or the standard ones.
  var limits: OutputLimits { self.app.load()?.limits ?? .standard }

  /// Runs `body` on the app queue when an app owns the instance and this is not it.
  func onAppQueue<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
    guard let app = self.app.load(), !app.executor.isCurrent else { return try body() }
    return try app.executor.sync(body)
  }

  deinit {
    let slot = self.slot
    self.queue.withInstance { slot.currentWhileHoldingInstance.destroy() }
  }

  /// How many actions the instance has reduced.
  public var reducedCount: UInt64 { self.queue.reducedCount }

  /// Whether the instance is quiet: nothing queued or being reduced, and no effect of its
  /// plugin running (as the plugin's optional `running_effects` reports; 0 without it).
  public var isQuiet: Bool {
    guard self.queue.isIdle else { return false }
    let slot = self.slot
    let running = self.queue.withInstance { () -> Int in
      let current = slot.currentWhileHoldingInstance
      return current.feature.vtable.running_effects.map { Int($0(current.instance)) } ?? 0
    }
    return running == 0 && self.queue.isIdle
  }

  /// Reasons for actions the plugin refused, in order.
  public var failures: [String] { self.failureLog.value }

  /// Called with each refused action's reason, on the thread that reduced it.
  public func onFailure(_ handler: (@Sendable (String) -> Void)?) {
    self.failureHandler.value = handler
  }

  /// Called after each action the instance reduced, in order, with where it came from; on
  /// the thread that reduced it, with the instance busy (do not call back into this handle;
  /// ``snapshotDuringCallback()`` is the one call allowed).
  public func onReduced(_ handler: (@Sendable ([UInt8], ActionSource) -> Void)?) {
    self.reducedHandler.value = handler
  }

  /// The state's snapshot bytes, read from inside an ``onReduced(_:)`` callback, where the
  /// instance is already held by the reducing thread (anywhere else, use ``snapshot()``); nil
  /// when the plugin fails or writes more than `[limits] state-bytes`.
  public func snapshotDuringCallback() -> [UInt8]? {
    let current = self.slot.currentWhileHoldingInstance
    let (status, bytes) = ByteSink.collect(limit: self.limits.stateBytes) {
      current.feature.vtable.snapshot(current.instance, $0)
    }
    return status == PB_OK ? bytes : nil
  }

  /// Where the instance's navigation requests go (an app runtime); nil logs them.
  public func onNavigationRequest(_ handler: (@Sendable (NavigationRequest) -> Void)?) {
    self.navigationHandler.value = handler
    self.slot.current.context.setNavigationTarget(handler)
  }

  /// Drops every action the plugin's effects send from now on: replaying a recording feeds
  /// the effects' recorded actions instead.
  public func muteEffects() {
    self.effectsMuted.mute()
  }

  /// Sends encoded action bytes. [thread-safe]
  public func send(_ action: [UInt8]) {
    self.send(action, as: .command)
  }

  /// Sends encoded action bytes as if an effect had sent them (for replay).
  /// Sends from code already on the app queue: no check, no hop (the per-action path).
  func sendOnAppQueue(_ action: [UInt8]) {
    self.queue.send(action, source: .command)
  }

  public func send(_ action: [UInt8], as source: ActionSource) {
    guard let app = self.app.load(), !app.executor.isCurrent else {
      return self.queue.send(action, source: source)
    }
    app.executor.sync {
      self.queue.send(action, source: source)
      app.afterJob()
    }
  }

  /// Parses the text form of an action and sends it; throws the plugin's reason when the
  /// text is not an action of this feature.
  public func send(text: String) throws(FeatureCallError) {
    let action = try self.parseAction(text)
    CrashNote.sending(text) { self.send(action) }
  }

  /// The encoding of an action's text form.
  public func parseAction(_ text: String) throws(FeatureCallError) -> [UInt8] {
    try self.onAppQueue { () throws(FeatureCallError) in try self.parseActionHere(text) }
  }

  /// Parses from code already on the app queue (or with no app): no check, no hop.
  func parseActionHere(_ text: String) throws(FeatureCallError) -> [UInt8] {
    if let bytes = self.parsedActions.withValue({ $0.bytes(for: text) }) { return bytes }
    let current = self.slot.current
    let bytes = try current.feature.parseAction(text, context: current.context, host: current.host)
    self.parsedActions.withValue { $0.insert(bytes, for: text) }
    return bytes
  }

  /// The text form of encoded action bytes.
  public func formatAction(_ bytes: [UInt8]) throws(FeatureCallError) -> String {
    try self.onAppQueue { () throws(FeatureCallError) in
      let current = self.slot.current
      return try current.feature.formatAction(bytes, context: current.context, host: current.host)
    }
  }

  /// The state's snapshot bytes (value encoding).
  public func snapshot() throws(FeatureCallError) -> [UInt8] {
    try self.onAppQueue { () throws(FeatureCallError) in try self.snapshotHere() }
  }

  func snapshotHere() throws(FeatureCallError) -> [UInt8] {
    let slot = self.slot
    let limit = self.limits.stateBytes
    let result = self.queue.withInstance { () -> Result<[UInt8], FeatureCallError> in
      do throws(FeatureCallError) {
        return .success(try slot.currentWhileHoldingInstance.snapshot(limit: limit))
      } catch {
        return .failure(error)
      }
    }
    return try result.get()
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
    try self.onAppQueue { () throws(FeatureCallError) in try self.renderHere() }
  }

  func renderHere() throws(FeatureCallError) -> String {
    let slot = self.slot
    let (status, bytes, current) = self.queue.withInstance {
      let current = slot.currentWhileHoldingInstance
      let (status, bytes) = CrashNote.during(
        "render", current.feature.crashLabel, instance: self.crashLabel.pointer
      ) {
        ByteSink.collect(limit: self.limits.viewBytes) {
          current.feature.vtable.render(current.instance, $0)
        }
      }
      return (status, bytes, current)
    }
    guard let bytes else {
      throw FeatureCallError(
        featureID: current.feature.id, call: "render",
        reason: OutputLimits.exceeded("view", self.limits.viewBytes))
    }
    guard status == PB_OK else {
      throw FeatureCallError(
        featureID: current.feature.id, call: "render",
        reason: current.context.takeErrors() ?? "status \(status.rawValue)"
      )
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// Cancels the instance's effects; the state is kept.
  public func cancelEffects() {
    let slot = self.slot
    self.queue.withInstance {
      let current = slot.currentWhileHoldingInstance
      current.feature.vtable.cancel_effects(current.instance)
    }
  }

}
