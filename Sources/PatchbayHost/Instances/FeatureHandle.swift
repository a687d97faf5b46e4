import DequeModule
import Patchbay
import PatchbayABI
import PatchbayAppQueue
import PatchbayEncoding
import PatchbayLoader
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
/// One executor owns the instance: the app's queue once an app made it (``AppRuntime``), or
/// a queue of its own for a handle made alone (tests, `inspect`). Every call into the plugin
/// runs there, one at a time: a call from another thread waits its turn, and an action its
/// effects send from their threads is queued there. Actions reduce in the order they
/// arrive; one the plugin sends while it reduces (its effects may start inline) waits for
/// that reduce to return. An action the plugin cannot decode is refused with its reason,
/// kept in ``failures`` and told to the app; the state stays as it was.
///
/// `@unchecked Sendable`: what changes is ``Owned`` state, touched only by the executor's jobs
/// (every access asserts it); the rest is immutable or atomic.
public final class FeatureHandle: InstanceInbox, @unchecked Sendable {
  /// What only the executor's jobs touch.
  package struct Owned {
    /// The plugin generation running now; a swap replaces it.
    package var implementation: Implementation
    /// Earlier generations a swap replaced whose effects still run: their actions reach
    /// `implementation` (FeatureHandle+EarlierGenerations.swift).
    var retired: [Implementation] = []
    /// Actions of earlier generations' effects that `implementation` was seen to have.
    var carriedActions: Set<[UInt8]> = []
    /// Actions sent while one is being reduced (the plugin's own sends): the instance's FIFO.
    var pending = Deque<([UInt8], ActionSource)>()
    var isReducing = false
    /// Reasons for actions the plugin refused, in order.
    var failures: [String] = []
    /// Action texts already parsed by this plugin generation.
    var parsedActions = ParsedActionCache()
    /// The app told what the instance does; nil for a handle on its own.
    var observer: (any InstanceObserver)?
  }

  let executor: AppExecutor
  /// How much the instance may write: its app's `[limits]`, or the standard ones.
  let limits: OutputLimits
  /// The instance's path, for crash reports (set by the app that creates it).
  package let label: CrashLabel
  private let effectsMuted = Atomic<Bool>(false)
  /// Set as `deinit` begins: jobs queued before its last one drop what they bring.
  private let closing = Atomic<Bool>(false)
  private let reduced = Atomic<UInt64>(0)
  private let storage: ExecutorOwned<Owned>

  /// Creates an instance on a queue of its own: from the feature's initial state, or from
  /// snapshot bytes of its current schema. Throws the plugin's reason when `create` fails.
  public convenience init(
    feature: LoadedFeature,
    restoring state: [UInt8]? = nil,
    log: @escaping @Sendable (pb_log_level, String) -> Void = { _, _ in },
    functions: FunctionResolver? = nil
  ) throws(FeatureCallError) {
    try self.init(
      feature: feature, restoring: state, on: AppExecutor(name: "patchbay-instance"),
      limits: .standard, log: log, functions: functions)
  }

  /// Creates an instance owned by `executor` (an app's queue).
  init(
    feature: LoadedFeature, restoring state: [UInt8]?, on executor: AppExecutor,
    limits: OutputLimits, label: String? = nil,
    log: @escaping @Sendable (pb_log_level, String) -> Void, functions: FunctionResolver?
  ) throws(FeatureCallError) {
    self.label = CrashLabel(label)
    let context = HostContext(executor: executor, log: log, functions: functions)
    self.executor = executor
    self.limits = limits
    let label = self.label
    let implementation = try executor.sync { () throws(FeatureCallError) in
      try Implementation(feature: feature, restoring: state, context: context, label: label)
    }
    self.storage = ExecutorOwned(
      Owned(implementation: implementation), by: executor, what: "an instance's state")
    executor.sync { context.owned.inbox = self }
  }

  deinit {
    self.closing.store(true, ordering: .sequentiallyConsistent)
    self.executor.sync {
      self.owned.retired.forEach { $0.destroy() }
      self.owned.implementation.destroy()
    }
  }

  /// False once `deinit` began. [any thread]
  package var isOpen: Bool { !self.closing.load(ordering: .sequentiallyConsistent) }

  /// The executor-owned state, in place. [executor]
  package var owned: Owned {
    unsafeAddress { self.storage.address }
    unsafeMutableAddress { self.storage.mutableAddress }
  }

  /// Runs `work` on the executor with the plugin's instance: for a part of the host that
  /// makes the instance's processor calls itself (`patchbay validate`). [any thread]
  package func withInstance<Result>(_ work: (any PluginInstance) -> Result) -> Result {
    self.executor.sync { work(self.owned.implementation.instance) }
  }

  /// The feature this handle runs now (a swap changes it).
  public var feature: LoadedFeature { self.executor.sync { self.owned.implementation.feature } }

  // MARK: Sending

  /// Sends encoded action bytes: from a job of the executor, reduced now (or after the
  /// action being reduced); from another thread, in a job that waits its turn, after which
  /// the app applies what it caused.
  public func send(_ action: [UInt8], as source: ActionSource = .command) {
    guard !self.executor.isCurrent else { return self.receive(action, from: source) }
    self.executor.sync {
      self.receive(action, from: source)
      self.jobEnded()
    }
  }

  /// Parses the text form of an action and sends it; throws the plugin's reason when the
  /// text is not an action of this feature.
  public func send(text: String) throws(FeatureCallError) {
    try self.executor.sync { () throws(FeatureCallError) in
      let action = try self.parseAction(text)
      CrashNote.sending(text) { self.send(action) }
    }
  }

  /// An action the plugin sent (`host->send`, from its effects, or an earlier generation's
  /// that a swap left running): received unless effects are muted. [executor]
  package func pluginSent(_ action: [UInt8], from context: HostContext, keys: String?) {
    guard !self.effectsMuted.load(ordering: .relaxed) else { return }
    if context !== self.owned.implementation.context {
      guard self.carriesOver(action, from: context, keys: keys) else { return }
    }
    self.receive(action, from: .effect)
  }

  /// Reduces `action` now, or queues it behind the one being reduced. Inline: it is most of
  /// a send. [executor]
  @inline(__always)
  func receive(_ action: [UInt8], from source: ActionSource) {
    guard !self.owned.isReducing else {
      self.owned.pending.append((action, source))
      return
    }
    self.holdingSends { self.reduce(action, from: source) }
    if !self.owned.retired.isEmpty { self.reapRetired() }
  }

  /// Runs `body`, holding what the plugin sends during it in the instance's FIFO, then
  /// reduces what was held, in order. [executor]
  func holdingSends(_ body: () -> Void) {
    guard !self.owned.isReducing else { return body() }
    self.owned.isReducing = true
    body()
    while let (next, source) = self.owned.pending.popFirst() {
      self.reduce(next, from: source)
    }
    self.owned.isReducing = false
  }

  /// Reduces `action` with the implementation, borrowed rather than retained (two atomic
  /// steps an action): the app swaps implementations in jobs of their own, never inside a
  /// reduce, so it outlives the call. The one exception, a rollback after a crash, holds it
  /// itself (below). [executor]
  private func reduce(_ action: [UInt8], from source: ActionSource) {
    Unmanaged.passUnretained(self.owned.implementation)._withUnsafeGuaranteedRef {
      self.reduce(action, from: source, by: $0)
    }
  }

  @inline(__always)
  private func reduce(
    _ action: [UInt8], from source: ActionSource, by implementation: Implementation
  ) {
    let timing: ReduceTiming?
    if let observer = self.owned.observer {
      let timed = observer.instance(self, willReduce: action, from: source, by: implementation)
      timing = implementation.startTiming(timed)
    } else {
      // Nobody times it: it forgets the effects the last timed reduce left (it may start some).
      implementation.runningAfterReduce = nil
      timing = nil
    }
    // In this process, the plugin's C call, made here (a protocol witness and a frame fewer).
    let status =
      if let direct = implementation.directReduce { direct(action) } else {
        implementation.instance.reduce(action)
      }
    guard status == PB_OK else { return self.refused(status, by: implementation) }
    // Only the executor writes the count: a load and a store, not a locked add (5 ns).
    self.reduced.store(self.reduced.load(ordering: .relaxed) &+ 1, ordering: .relaxed)
    guard let observer = self.owned.observer else { return }
    let taken = timing.map(implementation.endTiming)
    observer.instance(self, reduced: action, from: source, timing: taken)
  }

  /// The plugin refused an action, or crashed reducing it: its reason is kept and told to the
  /// app. Out of line, so the send that succeeds keeps a small frame. [executor]
  @inline(never)
  private func refused(_ status: pb_status, by implementation: Implementation) {
    // Held: a crash may swap back below, which lets the implementation go.
    let held = Unmanaged.passRetained(implementation)
    defer { held.release() }
    let reason = implementation.context.takeErrors() ?? "status \(status.rawValue)"
    var message = "\(implementation.feature.id): reduce failed: \(reason)"
    // Held: what it does may take the instance out of its app (and clear `owned.observer`).
    let observer = self.owned.observer
    // An isolated plugin's crash, soon after a swap, swaps back.
    if let crash = implementation.instance.takeCrash(),
      let note = observer?.instance(self, crashed: crash)
    {
      message += " \(note)"
    }
    self.owned.failures.append(message)
    observer?.instance(self, refused: message)
  }

  /// The plugin crashed outside a call and runs again: the app may roll back. [executor]
  package func pluginCrashed(_ report: String) {
    let observer = self.owned.observer
    _ = observer?.instance(self, crashed: report)
  }

  /// Tells the app a job that reduced here ended. [executor]
  package func jobEnded() {
    let observer = self.owned.observer
    observer?.jobEnded()
  }

  /// Hands a navigation request to the app; false when no app owns the instance. [executor]
  package func requestNavigation(_ request: NavigationRequest) -> Bool {
    guard let observer = self.owned.observer else { return false }
    observer.instance(self, requests: request)
    return true
  }

  /// Drops every action the plugin's effects send from now on: replaying a recording feeds
  /// the effects' recorded actions instead.
  public func muteEffects() {
    self.effectsMuted.store(true, ordering: .relaxed)
  }

  /// How many actions the instance has reduced. [any thread]
  public var reducedCount: UInt64 { self.reduced.load(ordering: .relaxed) }

  /// Reasons for actions the plugin refused, in order; of them, how many its code crashed or
  /// hung in and went on (a WebAssembly trap).
  public var failures: [String] { self.executor.sync { self.owned.failures } }
  public var crashes: Int { self.executor.sync { self.owned.implementation.instance.crashes } }

  /// Whether the instance is quiet: nothing queued or being reduced, and no effect of its
  /// plugin running (as the plugin's optional `running_effects` reports; 0 without it), in
  /// this generation or an earlier one a swap left running.
  public var isQuiet: Bool {
    self.executor.sync {
      self.reapRetired()
      return !self.owned.isReducing && self.owned.pending.isEmpty
        && self.owned.implementation.instance.runningEffects == 0 && self.owned.retired.isEmpty
    }
  }
}
