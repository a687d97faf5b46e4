import CPatchbayChannel
import Foundation
import PatchbayABI
import PatchbayAppQueue
import PatchbayIsolation
import PatchbayLoader
import PatchbayRealtime

/// Serves the host's calls (``IsolatedCall``) to one plugin, in its own process: each request
/// is run on an executor of the process's own, as the host would run it on its app queue, and
/// answered with the result and what the plugin said meanwhile (``PluginNote``s). What the
/// plugin says outside a call (an effect thread) goes to the channel's ring.
///
/// `@unchecked Sendable`: `executor` owns `instances`, `notes`, `inCall` and the processor
/// table's writes; the ring and `ringMarks` are written under `ringLock`.
final class ChildServer: @unchecked Sendable {
  let channel: UnsafeMutablePointer<pb_channel>
  let plugin: Result<LoadedPlugin, PluginLoadError>
  let executor = AppExecutor(name: "patchbay-isolated")
  let functions: ChildFunctions
  private var instances: [UInt64: Instance] = [:]
  private var notes: [PluginNote] = []
  private var inCall = false
  private let ringLock = NSLock()
  /// Where in the ring each instance's last note ends: the host's reader has delivered all of
  /// an instance's notes once it took that many bytes.
  private var ringMarks: [UInt64: UInt32] = [:]
  /// The processors the audio thread serves, by index; written before the host learns one.
  private let processors: UnsafeMutablePointer<pb_channel_processor>
  private static let processorCapacity = 256
  nonisolated(unsafe) private static let processCall = UnsafePointer(strdup("process")!)
  private var processorCount = 0
  private var audioThread: RealtimeThread?
  /// The calls without an instance (parsing, formatting, migrating).
  private lazy var detached = HostContext(executor: self.executor, log: self.logger(instance: 0))

  final class Instance {
    let code: any PluginInstance
    let context: HostContext
    let inbox: Inbox
    /// The instance's path in the host's app, for crash reports.
    let label: CrashLabel
    var midiChannels: UInt16 = 0
    init(code: any PluginInstance, context: HostContext, inbox: Inbox, label: CrashLabel) {
      (self.code, self.context, self.inbox, self.label) = (code, context, inbox, label)
    }
  }

  init(
    channel: UnsafeMutablePointer<pb_channel>, plugin: Result<LoadedPlugin, PluginLoadError>,
    functions: ChildFunctions
  ) {
    self.channel = channel
    self.plugin = plugin
    self.functions = functions
    self.processors = .allocate(capacity: Self.processorCapacity)
    self.processors.initialize(
      repeating: pb_channel_processor(), count: Self.processorCapacity)
  }

  func run() -> Never {
    var seen: UInt32 = 0  // calls count from 1 in a new channel
    while true {
      let length = pb_channel_next_call(self.channel, &seen)
      guard length >= 0 else { exit(0) }
      let replyLength = self.executor.sync { self.serve(requestLength: Int(length)) }
      pb_channel_answer(self.channel, UInt32(replyLength))
    }
  }

  /// Runs one request; the reply's length.
  private func serve(requestLength: Int) -> Int {
    var request = WireReader(pb_channel_request(self.channel), length: requestLength)
    var reply = WireWriter(
      into: pb_channel_reply(self.channel), capacity: Int(self.channel.pointee.message_capacity))
    self.inCall = true
    self.notes.removeAll(keepingCapacity: true)
    defer { self.inCall = false }
    let status: pb_status
    var body = WireWriter(
      into: pb_channel_reply(self.channel) + 4,
      capacity: Int(self.channel.pointee.message_capacity) - 4)
    do {
      status = try self.call(&request, &body)
    } catch {
      body = WireWriter(into: pb_channel_reply(self.channel) + 4, capacity: 0)
      self.notes.append(.error("the host's request was malformed (\(error))"))
      status = PB_ERR_INVALID
    }
    reply.put(UInt32(status.rawValue))
    var tail = WireWriter(
      into: pb_channel_reply(self.channel) + 4 + body.count,
      capacity: Int(self.channel.pointee.message_capacity) - 4 - body.count)
    tail.put(UInt32(self.notes.count))
    for note in self.notes { note.write(to: &tail) }
    if body.overflowed || tail.overflowed {
      // Larger than the channel: say so instead, with no result.
      var small = WireWriter(
        into: pb_channel_reply(self.channel),
        capacity: Int(self.channel.pointee.message_capacity))
      small.put(UInt32(PB_ERR_FAILED.rawValue))
      small.put(UInt32(1))
      PluginNote.error("the reply is larger than the channel between the processes")
        .write(to: &small)
      return small.count
    }
    return 4 + body.count + tail.count
  }

  private func feature(_ index: UInt32) throws -> LoadedFeature {
    let plugin = try self.plugin.get()
    guard Int(index) < plugin.features.count else { throw WireReader.Truncated() }
    return plugin.features[Int(index)]
  }

  private func instance(_ id: UInt64) throws -> Instance {
    guard let instance = self.instances[id] else { throw WireReader.Truncated() }
    return instance
  }

  /// After a call on an instance: its errors, and its MIDI channels when they changed.
  private func finish(_ instance: Instance) {
    if let errors = instance.context.takeErrors() { self.notes.append(.error(errors)) }
    let channels = instance.context.midiChannels.load(ordering: .relaxed)
    if channels != instance.midiChannels {
      instance.midiChannels = channels
      self.notes.append(.midiChannels(channels))
    }
    for request in instance.context.takeShared() { self.notes.append(.share(request)) }
  }

  private func finishDetached() {
    if let errors = self.detached.takeErrors() { self.notes.append(.error(errors)) }
  }

  private func call(_ request: inout WireReader, _ out: inout WireWriter) throws -> pb_status {
    guard let call = IsolatedCall(rawValue: try request.read(UInt8.self)) else {
      throw WireReader.Truncated()
    }
    switch call {
    case .describe:
      let description: PluginDescription
      switch self.plugin {
      case .success(let plugin): description = PluginDescription(loaded: plugin)
      case .failure(let error): description = PluginDescription(error: error.reason)
      }
      out.put(bytes: Array(try JSONEncoder().encode(description)))
      return PB_OK

    case .create:
      let id = try request.read(UInt64.self)
      let feature = try self.feature(try request.read(UInt32.self))
      let state = try request.optionalBytes()
      let limit = Int(try request.read(UInt64.self))
      let path = try request.string()
      let label = CrashLabel(path.isEmpty ? nil : path)
      let inbox = Inbox(server: self, instance: id)
      let functions = self.functions
      let context = HostContext(
        executor: self.executor, log: self.logger(instance: id),
        functions: { try functions.resolve($0, $1, $2) })
      context.owned.inbox = inbox
      // The host knows the instance's earlier generations, not this process: the plugin tells
      // every cancellation and keyed send, and the host's context drops what nobody needs.
      context.generations.store(2, ordering: .relaxed)
      guard let code = feature.code.create(state: state, context: context, label: label) else {
        context.owned.inbox = nil  // the context outlives `inbox` (its table is never freed)
        if let errors = context.takeErrors() { self.notes.append(.error(errors)) }
        out.put(optional: nil)
        return PB_ERR_FAILED
      }
      let instance = Instance(code: code, context: context, inbox: inbox, label: label)
      self.instances[id] = instance
      self.finish(instance)
      let (status, snapshot) = code.snapshot(limit: limit)
      out.put(optional: status == PB_OK ? snapshot : nil)
      return PB_OK

    case .reduce:
      let instance = try self.instance(try request.read(UInt64.self))
      let limit = Int(try request.read(UInt64.self))
      let action = try request.bytes()
      let text = try request.string()
      let status =
        text.isEmpty
        ? instance.code.reduce(action) : CrashNote.sending(text) { instance.code.reduce(action) }
      // The state as of this action, kept by the host to start the plugin again from.
      let snapshot = status == PB_OK ? instance.code.snapshot(limit: limit) : (PB_OK, nil)
      self.finish(instance)
      out.put(optional: snapshot.0 == PB_OK ? snapshot.1 : nil)
      // Which actions' effects still run: the host keeps their states, to start them again
      // if this process crashes.
      out.put(optional: instance.code.effectOrigins())
      return status

    case .snapshot, .render:
      let instance = try self.instance(try request.read(UInt64.self))
      let limit = Int(try request.read(UInt64.self))
      let (status, bytes) =
        call == .snapshot
        ? instance.code.snapshot(limit: limit) : instance.code.render(limit: limit)
      self.finish(instance)
      out.put(optional: bytes)
      return status

    case .parseAction, .formatAction:
      let feature = try self.feature(try request.read(UInt32.self))
      let input = try request.bytes()
      let (status, bytes) =
        call == .parseAction
        ? feature.code.parseAction(String(decoding: input, as: UTF8.self), context: self.detached)
        : feature.code.formatAction(input, context: self.detached)
      self.finishDetached()
      out.put(bytes: bytes)
      return status

    case .migrate:
      let feature = try self.feature(try request.read(UInt32.self))
      let schema = try request.read(UInt32.self)
      let limit = Int(try request.read(UInt64.self))
      let (status, bytes) = feature.code.migrate(
        from: schema, state: try request.bytes(), limit: limit, context: self.detached)
      self.finishDetached()
      out.put(optional: bytes)
      return status

    case .runningEffects:
      let id = try request.read(UInt64.self)
      out.put(UInt64(try self.instance(id).code.runningEffects))
      let mark = self.ringLock.withLock { self.ringMarks[id] }
      out.put(UInt8(mark == nil ? 0 : 1))
      out.put(mark ?? 0)
      return PB_OK

    case .cancelEffects:
      let instance = try self.instance(try request.read(UInt64.self))
      instance.code.cancelEffects()
      self.finish(instance)
      return PB_OK

    case .cancelEffectsKeyed:
      let instance = try self.instance(try request.read(UInt64.self))
      instance.code.cancelEffects(key: try request.string())
      self.finish(instance)
      return PB_OK

    case .resumeEffects:
      let instance = try self.instance(try request.read(UInt64.self))
      let status = instance.code.resumeEffects()
      self.finish(instance)
      return status

    case .restartEffects:
      let instance = try self.instance(try request.read(UInt64.self))
      let state = try request.bytes()
      let action = try request.bytes()
      let effects = try (0..<request.read(UInt32.self)).map { _ in try request.read(UInt32.self) }
      let status = instance.code.restartEffects(state: state, action: action, effects: effects)
      self.finish(instance)
      out.put(optional: instance.code.effectOrigins())
      return status

    case .destroy:
      let id = try request.read(UInt64.self)
      let instance = try self.instance(id)
      instance.code.destroy()
      self.finish(instance)
      instance.context.owned.inbox = nil
      self.instances[id] = nil
      self.ringLock.withLock { self.ringMarks[id] = nil }
      return PB_OK

    case .createProcessor:
      let instance = try self.instance(try request.read(UInt64.self))
      let feature = try self.feature(try request.read(UInt32.self))
      let config = pb_processor_config(
        struct_size: UInt32(MemoryLayout<pb_processor_config>.size),
        sample_rate: try request.read(UInt32.self), channel_count: try request.read(UInt32.self),
        max_frame_count: try request.read(UInt32.self))
      guard let descriptor = feature.code.processor, let process = descriptor.process,
        self.processorCount < Self.processorCapacity
      else {
        out.put(UInt32.max)
        return PB_ERR_UNSUPPORTED
      }
      guard let processor = instance.code.createProcessor(config, offline: false) else {
        self.finish(instance)
        out.put(UInt32.max)
        return PB_ERR_FAILED
      }
      self.finish(instance)
      let index = self.processorCount
      self.processors[index] = pb_channel_processor(
        process: process, processor: processor,
        max_output_events: descriptor.max_output_events,
        parameter_size: descriptor.parameter_size,
        max_midi_output: descriptor.max_midi_output,
        crash: pb_crash_context(
          feature: feature.code.crashLabel, instance: UnsafePointer(instance.label.pointer),
          call: Self.processCall, action: nil))
      self.processorCount += 1
      self.startAudio()
      out.put(UInt32(index))
      return PB_OK

    case .writeParameters:
      let instance = try self.instance(try request.read(UInt64.self))
      let size = Int(try request.read(UInt32.self))
      guard size <= Int(PB_MAX_PARAMETER_SIZE) else { throw WireReader.Truncated() }
      var block = [UInt8](repeating: 0, count: size)
      block.withUnsafeMutableBytes { instance.code.writeParameters($0.baseAddress!) }
      out.put(bytes: block)
      return PB_OK

    case .eventAction:
      let instance = try self.instance(try request.read(UInt64.self))
      let event = pb_processor_event(
        frame: try request.read(UInt32.self), kind: try request.read(UInt32.self),
        value: try request.read(Int64.self), time: try request.read(UInt64.self))
      let (status, bytes) = instance.code.eventAction(event)
      self.finish(instance)
      out.put(bytes: bytes)
      return status

    case .destroyProcessor:
      let index = Int(try request.read(UInt32.self))
      guard index < self.processorCount, let processor = self.processors[index].processor else {
        throw WireReader.Truncated()
      }
      // The host names a processor only while it lives: the audio thread is not in it.
      let feature = try self.feature(try request.read(UInt32.self))
      feature.code.processor?.destroy?(processor)
      self.processors[index].processor = nil
      self.processors[index].process = nil
      return PB_OK
    }
  }

  private func startAudio() {
    guard self.audioThread == nil else { return }
    // Addresses, to cross into the thread: both live as long as the process.
    let channel = UInt(bitPattern: self.channel)
    let table = UInt(bitPattern: self.processors)
    let capacity = UInt32(Self.processorCapacity)
    self.audioThread = RealtimeThread(name: "patchbay-iso-rt") {
      pb_channel_serve_audio(
        UnsafeMutablePointer(bitPattern: channel), UnsafePointer(bitPattern: table), capacity)
    }
  }

  /// A note from the plugin: part of the reply while a call runs on this thread, else a
  /// message in the ring.
  func say(_ note: PluginNote, instance: UInt64) {
    if self.executor.isCurrent && self.inCall {
      self.notes.append(note)
      return
    }
    let capacity = 64 + self.noteSize(note)
    let buffer = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 8)
    defer { buffer.deallocate() }
    var out = WireWriter(into: buffer, capacity: capacity)
    out.put(instance)
    note.write(to: &out)
    self.ringLock.withLock {
      if pb_channel_ring_put(self.channel, buffer, UInt32(out.count)) == 0 {
        self.ringMarks[instance] = pb_channel_ring_written(self.channel)
      }
    }
  }

  private func noteSize(_ note: PluginNote) -> Int {
    switch note {
    case .error(let text), .log(_, let text): text.utf8.count
    case .send(let bytes): bytes.count
    case .sendFrom(let keys, let bytes): keys.utf8.count + bytes.count
    case .cancelled(let key): key.utf8.count
    case .navigate(let request): request.node.utf8.count + (request.state?.count ?? 0)
    case .midiChannels: 0
    case .share(.publish(let name, let value)): name.utf8.count + value.count
    case .share(.subscribe(let name, let action)): name.utf8.count + (action?.utf8.count ?? 0)
    case .share(.hold(let name, let value)), .share(.write(let name, let value)):
      name.utf8.count + value.count
    }
  }

  private func logger(instance: UInt64) -> @Sendable (pb_log_level, String) -> Void {
    { [weak self] level, text in
      guard let self else { return }
      // host->error from outside a call arrives here as an error-level log.
      self.say(.log(level, text), instance: instance)
    }
  }
}
