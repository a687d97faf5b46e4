import CPatchbayChannel
import Foundation
import Patchbay
import PatchbayABI
import PatchbayAppQueue
import PatchbayLoader

/// One plugin running in a process of its own, as the host sees it: the process (started
/// again when it crashes or hangs), the calls across, and the instances living in it, each
/// with the state it had after its last completed action, to be created from again.
///
/// ```swift
/// let plugin = try IsolatedPlugin(file: "/…/libSynth.so", options: options)
/// plugin.description.features[0].id      // "dev.patchbay.synth"
/// ```
///
/// Its calls, restarts and bookkeeping are jobs of its own executor (``AppExecutor``): calls
/// from several executors (an app's queue, a standalone handle's) go one at a time, as the
/// channel has one request area; the reaper and the lateness monitor join the same queue. The
/// one lock, `contexts`, is for the ring's reader thread, which must not wait behind a call
/// (a call may be waiting for the reader to drain the ring).
///
/// Its restarts are in `IsolatedPlugin+Restart.swift`, its processors in `+Processors`, what
/// it says outside calls in `+Ring`.
///
/// `@unchecked Sendable`: what changes is owned by `executor`, or behind `contexts`.
package final class IsolatedPlugin: @unchecked Sendable {
  package let file: String
  package let options: IsolationOptions
  /// What the plugin declared when its process first loaded it.
  package let description: PluginDescription
  /// The queue every call, restart and change of ``Owned`` runs on.
  let executor: AppExecutor
  private let storage: ExecutorOwned<Owned>
  /// The instances' contexts by id, for the ring's reader thread. The lock's owner is this
  /// plugin; the reader reads, the executor's jobs add and remove.
  let contexts = LockedValue<[UInt64: HostContext]>([:])

  /// What the plugin's executor owns.
  struct Owned {
    var child: ChildProcess
    /// The last two processes that ended, kept mapped (the audio thread may still be in a
    /// period of the one before).
    var retired: [ChildProcess] = []
    var instances: [UInt64: Weak] = [:]
    /// Live processors, to create again after a restart and to watch for lateness.
    var processors: [ObjectIdentifier: IsolatedProcessor] = [:]
    var monitor: Thread?
    var nextInstance: UInt64 = 1
    var crashes: [UInt64] = []
    /// Why the plugin no longer runs, once it crashed too often.
    var disabledReason: String?
    /// Why the monitor ended the process, for the report.
    var noteHang: String?
  }

  /// What the executor owns. [executor]
  var owned: Owned {
    unsafeAddress { self.storage.address }
    unsafeMutableAddress { self.storage.mutableAddress }
  }

  struct Weak {
    weak var instance: IsolatedInstance?
  }

  package init(file: String, options: IsolationOptions) throws(IsolationError) {
    self.file = file
    self.options = options
    let child = try Self.startProcess(file: file, options: options)
    let description = try Self.describe(child, options: options)
    if let error = description.error {
      child.kill()
      throw IsolationError(error, loaderReason: error)
    }
    self.description = description
    self.executor = AppExecutor(name: "patchbay.isolated \((file as NSString).lastPathComponent)")
    self.storage = ExecutorOwned(Owned(child: child), by: self.executor, what: "IsolatedPlugin")
    self.startReader(for: child)
    child.whenEnded { [weak self] child, why in self?.ended(child, why: why) }
  }

  deinit {
    self.executor.sync { self.owned.child.kill() }
  }

  static func startProcess(file: String, options: IsolationOptions) throws(IsolationError)
    -> ChildProcess
  {
    var arguments = [file]
    if let pin = options.pin { arguments += ["--pin", pin] }
    if options.allowsInsecurePaths { arguments.append("--allow-insecure-paths") }
    for provider in options.providers { arguments += ["--provider", provider] }
    if !options.sandboxAllows.isEmpty {
      arguments += ["--allow", options.sandboxAllows.sorted().joined(separator: ",")]
    }
    if options.limits.isolatedMemoryMB > 0 {
      arguments += ["--memory-mb", "\(options.limits.isolatedMemoryMB)"]
    }
    if options.limits.isolatedCPUSeconds > 0 {
      arguments += ["--cpu-seconds", "\(options.limits.isolatedCPUSeconds)"]
    }
    // For the WebAssembly providers of its functions, which it runs itself.
    arguments += ["--wasm-fuel", "\(options.limits.wasmFuel)"]
    arguments += ["--wasm-memory-mb", "\(options.limits.wasmMemoryMB)"]
    return try ChildProcess.start(
      try options.executable(), arguments: arguments,
      messageCapacity: options.limits.stateBytes + (1 << 20),
      cpuSeconds: options.limits.isolatedCPUSeconds)
  }

  /// [reaper thread] A process ended. Outside a call (an effect thread or the processor
  /// crashed it) nobody else will notice: recover now, and log it.
  func ended(_ child: ChildProcess, why: String) {
    let message: IsolationError? = self.executor.sync {
      guard child === self.owned.child, self.owned.disabledReason == nil else { return nil }
      defer { self.owned.noteHang = nil }
      return self.recover(from: self.owned.noteHang ?? "crashed: \(why)")
    }
    guard let message else { return }
    self.announce(message)
  }

  /// Logs a crash and tells every instance's owner (an app may roll a recent swap back).
  func announce(_ message: IsolationError) {
    let contexts = self.contexts.withValue { $0.sorted { $0.key < $1.key } }
    contexts.first?.value.log(PB_LOG_ERROR, message.description)
    // Each instance's owner learns of it (an app may roll a recent swap back).
    for (_, context) in contexts {
      context.executor.enqueue {
        guard let inbox = context.owned.inbox else { return }
        inbox.pluginCrashed(message.description)
        inbox.jobEnded()
      }
    }
  }

  /// How much CPU time a new process may use before answering its first call:
  /// `call-seconds`, but at least 5 s. Starting is exec, the Swift runtime and the plugin's
  /// libraries from disk. On busy cores that can take minutes of wall-clock time (seen: past
  /// 30 s, with both cores loaded and two builds beside), but not of the process's own CPU
  /// time: a plugin whose entry spins is named after this much of it, whatever the load.
  static func startSeconds(_ options: IsolationOptions) -> Int {
    max(options.limits.callSeconds, 5)
  }

  /// A process that has not answered after this much wall-clock time is given up on even if it
  /// used no CPU (an entry blocked forever).
  static func startWallSeconds(_ options: IsolationOptions) -> Int {
    max(Self.startSeconds(options) * 20, 120)
  }

  static func describe(_ child: ChildProcess, options: IsolationOptions)
    throws(IsolationError) -> PluginDescription
  {
    var out = WireWriter(
      into: pb_channel_request(child.channel),
      capacity: Int(child.channel.pointee.message_capacity))
    out.put(IsolatedCall.describe.rawValue)
    var length: UInt32 = 0
    let bound = Self.startSeconds(options)
    let started = ContinuousClock.now
    let slice: UInt64 = 1_000_000_000
    var result = pb_channel_call(child.channel, UInt32(out.count), slice, &length)
    // Judged by the process's own CPU time, so a loaded machine is not a hang.
    while Int(result) == PB_CHANNEL_TIMEOUT {
      let cpu = child.cpuTimeUsed
      let wall = ContinuousClock.now - started
      if cpu >= Double(bound) || wall >= .seconds(Self.startWallSeconds(options)) {
        child.kill()
        throw IsolationError(
          "its process did not answer after \(Int(cpu)) s of its CPU time "
            + "(\(wall.components.seconds) s since it started); a plugin's entry may spin or block")
      }
      result = pb_channel_await(child.channel, slice, &length)
    }
    guard Int(result) == PB_CHANNEL_OK else {
      throw IsolationError("its process did not start: \(child.waitForExit())")
    }
    do {
      var reply = WireReader(pb_channel_reply(child.channel), length: Int(length))
      _ = try reply.read(UInt32.self)
      let json = try reply.bytes()
      return try JSONDecoder().decode(PluginDescription.self, from: Data(json))
    } catch {
      child.kill()
      throw IsolationError("its process answered with a malformed description (\(error))")
    }
  }

  // MARK: Calls

  /// A reply: the call's status, its result (read by the caller) and the plugin's notes.
  package struct Reply<Result> {
    package var status: pb_status
    package var result: Result
    package var notes: [PluginNote]
  }

  /// Makes one call: writes the request with `write`, reads the result with `read`. A
  /// failure says why the process could not answer (it crashed, hung or is disabled); the
  /// process is then already started again, its instances recreated.
  package func call<Result>(
    _ name: String, write: (inout WireWriter) -> Void,
    read: (inout WireReader) throws -> Result
  ) -> Swift.Result<Reply<Result>, IsolationError> {
    var notCaused: IsolationError?
    let result = self.executor.sync {
      self.callOnQueue(name, write: write, read: read, notCaused: &notCaused)
    }
    if let notCaused { self.announce(notCaused) }
    // A crash found by a call other than an action's (a render, a quiet check) may have been
    // caused outside it, and its failure may go unseen (a view that cannot render): say it
    // as the reaper would. An action's refusal says it already.
    if case .failure(let error) = result, error.isCrash, name != "reduce" { self.announce(error) }
    return result
  }

  /// A crash the request did not cause: a thread of the plugin's own crashed the process
  /// (before the call or during it), so the call is made once more, in the new process. An
  /// action a plugin's thread sent just before it crashed is reduced, not lost. It is said in
  /// `notCaused`, as the reaper would have. [executor]
  private func callOnQueue<Result>(
    _ name: String, write: (inout WireWriter) -> Void,
    read: (inout WireReader) throws -> Result, notCaused: inout IsolationError?
  ) -> Swift.Result<Reply<Result>, IsolationError> {
    if let disabled = self.owned.disabledReason { return .failure(IsolationError(disabled)) }
    let child = self.owned.child
    var out = WireWriter(
      into: pb_channel_request(child.channel),
      capacity: Int(child.channel.pointee.message_capacity))
    write(&out)
    guard !out.overflowed else {
      return .failure(
        IsolationError("the \(name) request is larger than the channel to the plugin's process"))
    }
    var length: UInt32 = 0
    switch child.call(UInt32(out.count), seconds: self.options.limits.callSeconds, reply: &length) {
    case PB_CHANNEL_OK:
      do {
        var reply = WireReader(pb_channel_reply(child.channel), length: Int(length))
        let status = pb_status(rawValue: try reply.read(UInt32.self))
        let result = try read(&reply)
        var notes: [PluginNote] = []
        for _ in 0..<(try reply.read(UInt32.self)) {
          notes.append(try PluginNote.read(from: &reply))
        }
        return .success(Reply(status: status, result: result, notes: notes))
      } catch {
        // A reply that does not parse: the process is not to be trusted any more.
        child.kill()
        _ = child.waitForExit()
        return .failure(self.recover(from: "answered \(name) with a malformed reply"))
      }
    case PB_CHANNEL_TIMEOUT:
      child.kill()
      _ = child.waitForExit()
      return .failure(
        self.recover(
          from: "hung: its \(name) did not return within \(self.options.limits.callSeconds) s "
            + "([limits] call-seconds)"))
    default:
      let why = child.waitForExit()
      let error = self.recover(from: "crashed: \(why)")
      guard notCaused == nil, why.contains(CrashNote.outsideCalls), self.owned.disabledReason == nil
      else { return .failure(error) }
      notCaused = error
      return self.callOnQueue(name, write: write, read: read, notCaused: &notCaused)
    }
  }

  // MARK: Processors
  // MARK: Instances

  /// A new instance id, and the context the ring's notes for it go to. [executor]
  func register(_ instance: IsolatedInstance) {
    self.owned.instances[instance.id] = Weak(instance: instance)
    self.contexts.withValue { $0[instance.id] = instance.context }
  }

  func newInstanceID() -> UInt64 {
    self.executor.sync {
      defer { self.owned.nextInstance += 1 }
      return self.owned.nextInstance
    }
  }

  /// Whether the host's reader has delivered everything the process put in its ring up to
  /// `mark` (a count of ring bytes, as `pb_channel_ring_written` gives it, mod 2^32): an
  /// instance is not quiet until its last note arrived.
  func hasDelivered(upTo mark: UInt32) -> Bool {
    let applied = self.executor.sync { self.owned.child.ringApplied.load(ordering: .acquiring) }
    return Int32(bitPattern: mark &- applied) <= 0
  }

  func forget(_ id: UInt64) {
    self.executor.sync { self.owned.instances[id] = nil }
    self.contexts.withValue { $0[id] = nil }
  }
}
