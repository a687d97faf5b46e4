import Foundation
import Patchbay
import PatchbayABI
import PatchbayAppQueue
import Synchronization

/// The host side of one `pb_host` table: where a plugin's sends, errors, logs, navigation
/// requests and MIDI channels go. One per instance generation (a swap makes a new one).
///
/// ```swift
/// let context = HostContext(executor: app, log: { level, text in print(text) })
/// context.host                               // the table the plugin's create gets
/// // …the plugin calls host->error(host, "step must be positive") inside reduce…
/// context.takeErrors()                       // "step must be positive"
/// ```
///
/// Every call into the plugin runs on `executor` (the app queue, or a standalone handle's own
/// queue). What the plugin reports there belongs to that call; what it reports from any other
/// thread (an effect) belongs to no call and is logged. Its sends and navigation requests from
/// other threads are queued to `executor`.
///
/// `@unchecked Sendable`: `executor`, `log`, `resolveFunction` are immutable, `midiChannels`
/// is atomic (the audio thread reads it), and the rest is ``Owned`` state that only
/// `executor`'s jobs touch: every access asserts it.
package final class HostContext: @unchecked Sendable {
  /// What only the executor's jobs touch.
  package struct Owned {
    /// Reasons the plugin reported during the current call.
    var errors: [String] = []
    /// What it asked of "patchbay.shared/1", for the app to apply after the call.
    package var shared: [SharedRequest] = []
    /// Where the instance's sends and navigation requests go (its handle); nil drops them
    /// (a context outside any instance, an implementation a swap replaced, or a handle whose
    /// `deinit` began, while the jobs queued before its last one still run).
    package var inbox: (any InstanceInbox)? {
      get { self.unretainedInbox.flatMap { $0.isOpen ? $0 : nil } }
      set { self.unretainedInbox = newValue }
    }
    /// Unretained, not weak: a weak reference gives the handle a side table, and then every
    /// retain and release of it — on each send, and 10,000 times in a swap's hold — takes the
    /// slow path through that table. Not `unowned` either: a job queued before the handle's
    /// last one runs while its `deinit` waits for it, and reading an unowned reference then
    /// stops the process. The handle is closed (``InstanceInbox/isOpen``) as its `deinit`
    /// begins, and destroys its implementations (which sets this to nil) before it is freed.
    private unowned(unsafe) var unretainedInbox: (any InstanceInbox)?
  }

  package let executor: AppExecutor
  /// The table the plugin is given; its `host_data` is this context. Never freed (see
  /// ``HostTable``).
  package let host: UnsafePointer<pb_host>
  package let log: @Sendable (pb_log_level, String) -> Void
  /// Where "patchbay.functions/1" resolves (an app's ``FunctionTable``); nil when the
  /// instance runs outside an app.
  package let resolveFunction: FunctionResolver?
  /// The MIDI channels the instance listens to ("patchbay.midi/1"): bit 0 is channel 1.
  /// [written by the plugin, any thread; read by the audio thread and the app queue]
  package let midiChannels = Atomic<UInt16>(0)
  /// How many generations of the instance the host runs ("patchbay.effects/1"): 1, or more
  /// after a swap while an earlier one's effects run; set by its handle on each of their
  /// contexts. [written on the executor; read by the plugin, any thread]
  package let generations = Atomic<UInt32>(1)
  private let storage: ExecutorOwned<Owned>

  package init(
    executor: AppExecutor, log: @escaping @Sendable (pb_log_level, String) -> Void = { _, _ in },
    functions: FunctionResolver? = nil
  ) {
    self.executor = executor
    self.log = log
    self.resolveFunction = functions
    self.storage = ExecutorOwned(Owned(), by: executor, what: "a host context's state")
    let table = HostTable.allocate()
    self.host = UnsafePointer(table)
    table.pointee.host_data = Unmanaged.passRetained(self).toOpaque()
  }

  /// The executor-owned state, in place. [executor]
  package var owned: Owned {
    unsafeAddress { self.storage.address }
    unsafeMutableAddress { self.storage.mutableAddress }
  }

  /// `host->send` (and "patchbay.effects/1" `send_from`, with the keys of the effect that
  /// sent it): the action goes to the instance's inbox; from another thread, in a job of its
  /// own, after which the owner applies what it caused (navigation).
  package func deliver(_ bytes: [UInt8], keys: String? = nil) {
    guard !self.executor.isCurrent else {
      self.owned.inbox?.pluginSent(bytes, from: self, keys: keys)
      return
    }
    self.executor.enqueue {
      guard let inbox = self.owned.inbox else { return }
      inbox.pluginSent(bytes, from: self, keys: keys)
      inbox.jobEnded()
    }
  }

  /// "patchbay.effects/1" `cancelled`: the instance's code cancelled `key`; its inbox cancels
  /// the same key in the earlier generations that still run effects.
  package func cancelled(key: String) {
    guard self.generations.load(ordering: .relaxed) > 1 else { return }
    guard !self.executor.isCurrent else {
      self.owned.inbox?.earlierGenerationsCancel(key: key)
      return
    }
    self.executor.enqueue { self.owned.inbox?.earlierGenerationsCancel(key: key) }
  }

  /// A navigation request ("patchbay.navigation/1"), for the app that owns the instance.
  package func navigate(_ request: NavigationRequest) {
    guard !self.executor.isCurrent else {
      self.request(request)
      return
    }
    self.executor.enqueue {
      self.request(request)
      self.owned.inbox?.jobEnded()
    }
  }

  private func request(_ request: NavigationRequest) {
    if let inbox = self.owned.inbox, inbox.requestNavigation(request) { return }
    self.log(PB_LOG_WARNING, "navigation request \(request) ignored: this host runs no app")
  }

  /// A "patchbay.shared/1" request, kept for the app (``Owned/shared``); refused outside a
  /// call on the executor ([main-thread]) and for a bad name.
  package func share(_ request: SharedRequest) -> pb_status {
    let service = "patchbay.shared/1"
    guard self.executor.isCurrent else {
      self.log(PB_LOG_ERROR, "\(service) called from another thread: call it from create or reduce")
      return PB_ERR_INVALID
    }
    guard SharedRequest.isValid(name: request.name) else {
      self.report(
        "\(service): '\(request.name)' is not a shared name: use 1 to 64 letters, digits, '.', "
          + "'-', '_'")
      return PB_ERR_INVALID
    }
    if case .subscribe(_, let action?) = request, !SharedRequest.isValid(action: action) {
      self.report("\(service): '\(action)' is not an action name: use [A-Za-z_][A-Za-z0-9_]*")
      return PB_ERR_INVALID
    }
    self.owned.shared.append(request)
    return PB_OK
  }

  /// The shared requests made since the last time, in order. [executor]
  package func takeShared() -> [SharedRequest] {
    guard !self.owned.shared.isEmpty else { return [] }
    defer { self.owned.shared.removeAll() }
    return self.owned.shared
  }

  /// `host->error`: kept for the current call's failure, or logged when the plugin is outside
  /// any call (on an effect's thread).
  package func report(_ message: String) {
    guard self.executor.isCurrent else { return self.log(PB_LOG_ERROR, message) }
    self.owned.errors.append(message)
  }

  /// The reasons reported since the last call, joined; nil when none. [executor]
  package func takeErrors() -> String? {
    guard !self.owned.errors.isEmpty else { return nil }
    defer { self.owned.errors.removeAll() }
    return self.owned.errors.joined(separator: "; ")
  }
}

extension HostContext {
  /// Runs `body` with the context for calls that need no instance (parsing an action's text,
  /// migrating state outside an app: `inspect`, tests), on its own executor: one call at a
  /// time, so what the plugin reports belongs to the call it reports in.
  static func detached<T, E: Error>(_ body: (HostContext) throws(E) -> T) throws(E) -> T {
    try Self.detachedContext.executor.sync { () throws(E) -> T in
      _ = Self.detachedContext.takeErrors()
      return try body(Self.detachedContext)
    }
  }

  private static let detachedContext = HostContext(
    executor: AppExecutor(name: "patchbay-detached-calls"))
}
