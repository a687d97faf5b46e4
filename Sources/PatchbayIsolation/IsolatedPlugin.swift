import Foundation
import PatchbayABI
import PatchbayChannel
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
/// A call holds `lock` from request to reply: calls from several executors (an app's queue, a
/// standalone handle's) go one at a time, as the channel has one request area.
///
/// `@unchecked Sendable`: what changes is guarded by `lock` (the process, the instances, the
/// crash history) or `contextsLock` (the instances' contexts, for the ring's reader thread).
package final class IsolatedPlugin: @unchecked Sendable {
  package let file: String
  package let options: IsolationOptions
  /// What the plugin declared when its process first loaded it.
  package let description: PluginDescription
  private let lock = NSLock()
  private var child: ChildProcess
  /// The last two processes that ended, kept mapped (the audio thread may still be in a
  /// period of the one before).
  private var retired: [ChildProcess] = []
  private var instances: [UInt64: Weak] = [:]
  /// Live processors, to create again after a restart and to watch for lateness.
  private var processors: [ObjectIdentifier: IsolatedProcessor] = [:]
  private var monitor: Thread?
  private var nextInstance: UInt64 = 1
  private var crashes: [UInt64] = []
  /// Why the plugin no longer runs, once it crashed too often. [lock, disabledLock to read]
  private var disabledReason: String?
  private let disabledLock = NSLock()
  package var disabled: String? { self.disabledLock.withLock { self.disabledReason } }
  /// Why the monitor ended the process, for the report. [lock]
  private var noteHang: String?
  private let contextsLock = NSLock()
  private var contexts: [UInt64: HostContext] = [:]

  private struct Weak {
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
    self.child = child
    self.description = description
    self.startReader(for: child)
    child.whenEnded { [weak self] child, why in self?.ended(child, why: why) }
  }

  deinit {
    self.child.kill()
  }

  private static func startProcess(file: String, options: IsolationOptions) throws(IsolationError)
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
    return try ChildProcess.start(
      try options.executable(), arguments: arguments,
      messageCapacity: options.limits.stateBytes + (1 << 20),
      cpuSeconds: options.limits.isolatedCPUSeconds)
  }

  /// [reaper thread] A process ended. Outside a call (an effect thread or the processor
  /// crashed it) nobody else will notice: recover now, and log it.
  private func ended(_ child: ChildProcess, why: String) {
    let message: IsolationError? = self.lock.withLock {
      guard child === self.child, self.disabledReason == nil else { return nil }
      defer { self.noteHang = nil }
      return self.recover(from: self.noteHang ?? "crashed: \(why)")
    }
    guard let message else { return }
    self.announce(message)
  }

  /// Logs a crash and tells every instance's owner (an app may roll a recent swap back).
  private func announce(_ message: IsolationError) {
    let contexts = self.contextsLock.withLock { self.contexts.sorted { $0.key < $1.key } }
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

  private static func describe(_ child: ChildProcess, options: IsolationOptions)
    throws(IsolationError) -> PluginDescription
  {
    var out = WireWriter(
      into: pb_channel_request(child.channel),
      capacity: Int(child.channel.pointee.message_capacity))
    out.put(IsolatedCall.describe.rawValue)
    var length: UInt32 = 0
    let result = pb_channel_call(
      child.channel, UInt32(out.count), UInt64(options.limits.callSeconds) * 1_000_000_000,
      &length)
    guard Int(result) == PB_CHANNEL_OK else {
      if Int(result) == PB_CHANNEL_TIMEOUT {
        child.kill()
        throw IsolationError(
          "its process did not answer within \(options.limits.callSeconds) s of starting")
      }
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
    let result = self.lock.withLock { self.callLocked(name, write: write, read: read) }
    // A crash found by a call other than an action's (a render, a quiet check) may have been
    // caused outside it, and its failure may go unseen (a view that cannot render): say it
    // as the reaper would. An action's refusal says it already.
    if case .failure(let error) = result, error.isCrash, name != "reduce" {
      self.announce(error)
    }
    return result
  }

  private func callLocked<Result>(
    _ name: String, write: (inout WireWriter) -> Void,
    read: (inout WireReader) throws -> Result
  ) -> Swift.Result<Reply<Result>, IsolationError> {
    if let disabled = self.disabledReason { return .failure(IsolationError(disabled)) }
    let child = self.child
    var out = WireWriter(
      into: pb_channel_request(child.channel),
      capacity: Int(child.channel.pointee.message_capacity))
    write(&out)
    guard !out.overflowed else {
      return .failure(
        IsolationError("the \(name) request is larger than the channel to the plugin's process"))
    }
    var length: UInt32 = 0
    let timeout = UInt64(self.options.limits.callSeconds) * 1_000_000_000
    switch Int(pb_channel_call(child.channel, UInt32(out.count), timeout, &length)) {
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
      return .failure(self.recover(from: "crashed: \(child.waitForExit())"))
    }
  }

  /// After the process ended: counts the crash, disables the plugin if it crashes too often,
  /// else starts it again and recreates its instances. Says what happened. [lock]
  private func recover(from what: String) -> IsolationError {
    let now = DispatchTime.now().uptimeNanoseconds
    let window = UInt64(self.options.limits.isolatedCrashSeconds) * 1_000_000_000
    self.crashes = self.crashes.filter { now - $0 < window } + [now]
    // The id first, then what happened (a status line shows the start), then the file, unless
    // the crash report named it. The reports end without a full stop; this adds one.
    let name = self.description.id
    var what = what.hasSuffix(".") ? String(what.dropLast()) : what
    if !what.contains(self.file) { what += " (\(self.file))" }
    if self.crashes.count >= self.options.limits.isolatedCrashes {
      self.disable(
        "\(name) is disabled: it failed \(self.crashes.count) times within "
          + "\(self.options.limits.isolatedCrashSeconds) s, the last time it \(what). Fix it and swap it "
          + "in, or restart the app.")
      return IsolationError(self.disabledReason!, isCrash: true)
    }
    if let failure = self.restart() {
      return IsolationError("\(name) \(what). \(failure)", isCrash: true)
    }
    return IsolationError(
      "\(name) \(what). Its process was started again, each instance with its state as of its "
        + "last completed action.", isCrash: true)
  }

  private func disable(_ reason: String) {
    self.disabledLock.withLock { self.disabledReason = reason }
  }

  /// Starts a new process and recreates every live instance from its last state; nil, or
  /// why that failed (then the plugin is disabled). [lock]
  private func restart() -> String? {
    // Two restarts back, no audio thread can still be in a retired process's period: its
    // memory goes.
    self.retired.append(self.child)
    if self.retired.count > 2 { self.retired.removeFirst() }
    do {
      let child = try Self.startProcess(file: self.file, options: self.options)
      let description = try Self.describe(child, options: self.options)
      guard description.features.map(\.id) == self.description.features.map(\.id) else {
        child.kill()
        throw IsolationError(
          "its file now declares other features (\(description.features.map(\.id))); swap it in")
      }
      self.child = child
      self.startReader(for: child)
      child.whenEnded { [weak self] child, why in self?.ended(child, why: why) }
    } catch {
      self.disable("\(self.description.id) is disabled: it could not be started again: \(error)")
      return self.disabledReason
    }
    for (id, entry) in self.instances.sorted(by: { $0.key < $1.key }) {
      guard let instance = entry.instance else {
        self.instances[id] = nil
        continue
      }
      if let failure = self.recreate(instance) {
        instance.broken = failure
      }
    }
    for processor in self.processors.values {
      processor.bind(nil, index: nil)
      guard processor.instance.broken == nil else { continue }
      var out = WireWriter(
        into: pb_channel_request(self.child.channel),
        capacity: Int(self.child.channel.pointee.message_capacity))
      processor.instance.writeCreateProcessor(&out, config: processor.config)
      var length: UInt32 = 0
      let timeout = UInt64(self.options.limits.callSeconds) * 1_000_000_000
      guard
        Int(pb_channel_call(self.child.channel, UInt32(out.count), timeout, &length))
          == PB_CHANNEL_OK
      else { continue }
      var reply = WireReader(pb_channel_reply(self.child.channel), length: Int(length))
      guard (try? reply.read(UInt32.self)) == PB_OK.rawValue,
        let index = try? reply.read(UInt32.self)
      else { continue }
      processor.bind(self.child.channel, index: index)
    }
    return nil
  }

  // MARK: Processors

  /// Creates `instance`'s processor in the process and binds a host-side one to it.
  func createProcessor(
    for instance: IsolatedInstance, config: pb_processor_config, offline: Bool,
    parameterSize: UInt32
  ) -> IsolatedProcessor? {
    let reply = self.call("processor create") {
      instance.writeCreateProcessor(&$0, config: config)
    } read: {
      try $0.read(UInt32.self)
    }
    guard case .success(let reply) = reply else {
      if case .failure(let error) = reply { instance.context.report(error.description) }
      return nil
    }
    apply(reply.notes, to: instance.context)
    guard reply.status == PB_OK else { return nil }
    let processor = IsolatedProcessor(
      instance: instance, config: config, offline: offline, parameterSize: parameterSize)
    self.lock.withLock {
      processor.bind(self.child.channel, index: reply.result)
      self.processors[ObjectIdentifier(processor)] = processor
      if self.monitor == nil { self.startMonitor() }
    }
    return processor
  }

  /// Frees the processor in the process (if it is still the one it was made in).
  func destroy(_ processor: IsolatedProcessor) {
    let index = self.lock.withLock { () -> UInt32? in
      self.processors[ObjectIdentifier(processor)] = nil
      return processor.childIndex
    }
    guard let index else { return }
    _ = self.call("processor destroy") {
      $0.put(IsolatedCall.destroyProcessor.rawValue)
      $0.put(index)
      $0.put(processor.instance.feature.index)
    } read: { _ in
    }
  }

  /// A thread that ends the process when one of its processors has not delivered a period
  /// for `[limits] audio-periods` periods in a row (the processor hangs, so the audio thread
  /// plays silence for it): the reaper then starts it again.
  private func startMonitor() {
    let limit = UInt64(self.options.limits.audioPeriods)
    let monitor = Thread { [weak self] in
      while let self {
        usleep(25_000)
        let stuck = self.lock.withLock { () -> ChildProcess? in
          let late = self.processors.values.first {
            $0.lateInARow >= limit && $0.childIndex != nil
          }
          guard let late, !self.child.hasEnded, self.noteHang == nil else { return nil }
          self.noteHang =
            late.pointer.pointee.offline != 0
            ? "hung: its processor did not render a period within "
              + "\(self.options.limits.callSeconds) s ([limits] call-seconds)"
            : "hung: its processor delivered no period for \(limit) periods in a row "
              + "([limits] audio-periods)"
          return self.child
        }
        stuck?.kill()
      }
    }
    monitor.name = "patchbay-iso-watch"
    monitor.start()
    self.monitor = monitor
  }

  /// Creates `instance` again in the new process, from its last state. [lock]
  private func recreate(_ instance: IsolatedInstance) -> String? {
    var out = WireWriter(
      into: pb_channel_request(self.child.channel),
      capacity: Int(self.child.channel.pointee.message_capacity))
    instance.writeCreate(&out)
    var length: UInt32 = 0
    let timeout = UInt64(self.options.limits.callSeconds) * 1_000_000_000
    guard
      Int(pb_channel_call(self.child.channel, UInt32(out.count), timeout, &length)) == PB_CHANNEL_OK
    else { return "its process ended again while the instance was recreated" }
    var reply = WireReader(pb_channel_reply(self.child.channel), length: Int(length))
    guard let status = try? reply.read(UInt32.self), status == PB_OK.rawValue else {
      return "the plugin refused its own last state when it was started again"
    }
    return nil
  }

  // MARK: Instances

  /// A new instance id, and the context the ring's notes for it go to.
  func register(_ instance: IsolatedInstance) {
    self.lock.withLock { self.instances[instance.id] = Weak(instance: instance) }
    self.contextsLock.withLock { self.contexts[instance.id] = instance.context }
  }

  func newInstanceID() -> UInt64 {
    self.lock.withLock {
      defer { self.nextInstance += 1 }
      return self.nextInstance
    }
  }

  /// Whether something the plugin said outside a call (an effect's send) is still between its
  /// process and its context: an instance is not quiet until it arrived.
  var hasNotesInFlight: Bool {
    self.lock.withLock {
      self.child.ringApplied.load(ordering: .acquiring)
        != pb_channel_ring_written(self.child.channel)
    }
  }

  func forget(_ id: UInt64) {
    self.lock.withLock { self.instances[id] = nil }
    self.contextsLock.withLock { self.contexts[id] = nil }
  }

  // MARK: The ring

  /// A thread that takes what the process says outside calls and hands it to the instances'
  /// contexts, until the process ends.
  private func startReader(for child: ChildProcess) {
    let reader = Thread { [weak self] in
      var buffer = [UInt8](repeating: 0, count: 1 << 20)
      while true {
        let length = buffer.withUnsafeMutableBytes {
          pb_channel_ring_take(child.channel, $0.baseAddress, UInt32($0.count))
        }
        guard length > 0, let self else { return }
        buffer.withUnsafeBytes { bytes in
          var reader = WireReader(bytes.baseAddress!, length: Int(length))
          guard let id = try? reader.read(UInt64.self),
            let note = try? PluginNote.read(from: &reader)
          else { return }
          let context = self.contextsLock.withLock { self.contexts[id] }
          if let context { apply([note], to: context) }
        }
        child.ringApplied.store(pb_channel_ring_taken(child.channel), ordering: .releasing)
      }
    }
    reader.name = "patchbay-iso-ring"
    reader.start()
  }
}

/// Replays what the plugin said into `context`, as if it had said it in this process.
func apply(_ notes: [PluginNote], to context: HostContext) {
  for note in notes {
    switch note {
    case .error(let text): context.report(text)
    case .log(let level, let text): context.log(level, text)
    case .send(let bytes): context.deliver(bytes)
    case .navigate(let request):
      let navigation: NavigationRequest
      switch pb_navigation_kind(rawValue: request.kind) {
      case PB_NAVIGATE_PUSH: navigation = .push(node: request.node, state: request.state)
      case PB_NAVIGATE_PRESENT: navigation = .present(node: request.node, state: request.state)
      case PB_NAVIGATE_POP: navigation = .pop
      case PB_NAVIGATE_POP_TO_ROOT: navigation = .popToRoot
      default: navigation = .dismiss
      }
      context.navigate(navigation)
    case .midiChannels(let mask): context.midiChannels.store(mask, ordering: .relaxed)
    }
  }
}
