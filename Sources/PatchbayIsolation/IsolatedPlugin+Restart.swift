import CPatchbayChannel
import Foundation
import PatchbayABI
import PatchbayLoader

/// What an isolated plugin does when its process ended: count it, disable the plugin if it
/// fails too often, else start a new process and recreate the instances and their processors.
extension IsolatedPlugin {
  /// After the process ended: counts the crash, disables the plugin if it crashes too often,
  /// else starts it again and recreates its instances. Says what happened. [executor]
  func recover(from what: String) -> IsolationError {
    let now = DispatchTime.now().uptimeNanoseconds
    let window = UInt64(self.options.limits.isolatedCrashSeconds) * 1_000_000_000
    self.owned.crashes = self.owned.crashes.filter { now - $0 < window } + [now]
    // The id first, then what happened (a status line shows the start), then the file, unless
    // the crash report named it. The reports end without a full stop; this adds one.
    let name = self.description.id
    var what = what.hasSuffix(".") ? String(what.dropLast()) : what
    if !what.contains(self.file) { what += " (\(self.file))" }
    if self.owned.crashes.count >= self.options.limits.isolatedCrashes {
      self.disable(
        "\(name) is disabled: it failed \(self.owned.crashes.count) times within "
          + "\(self.options.limits.isolatedCrashSeconds) s, the last time it \(what). Fix it and swap it "
          + "in, or restart the app.")
      return IsolationError(self.owned.disabledReason!, isCrash: true)
    }
    if let failure = self.restart() {
      return IsolationError("\(name) \(what). \(failure)", isCrash: true)
    }
    return IsolationError(
      "\(name) \(what). Its process was started again, each instance with its state as of its "
        + "last completed action.", isCrash: true)
  }

  /// [executor]
  func disable(_ reason: String) {
    self.owned.disabledReason = reason
  }

  /// Starts a new process and recreates every live instance from its last state; nil, or
  /// why that failed (then the plugin is disabled). [executor]
  func restart() -> String? {
    // Two restarts back, no audio thread can still be in a retired process's period: its
    // memory goes.
    self.owned.retired.append(self.owned.child)
    if self.owned.retired.count > 2 { self.owned.retired.removeFirst() }
    do {
      let child = try Self.startProcess(file: self.file, options: self.options)
      let description = try Self.describe(child, options: self.options)
      guard description.features.map(\.id) == self.description.features.map(\.id) else {
        child.kill()
        throw IsolationError(
          "its file now declares other features (\(description.features.map(\.id))); swap it in")
      }
      self.owned.child = child
      self.startReader(for: child)
      child.whenEnded { [weak self] child, why in self?.ended(child, why: why) }
    } catch {
      self.disable("\(self.description.id) is disabled: it could not be started again: \(error)")
      return self.owned.disabledReason
    }
    for (id, entry) in self.owned.instances.sorted(by: { $0.key < $1.key }) {
      guard let instance = entry.instance else {
        self.owned.instances[id] = nil
        continue
      }
      if let failure = self.recreate(instance) {
        instance.broken = failure
      } else {
        self.resume(instance)
      }
    }
    for processor in self.owned.processors.values {
      processor.bind(nil, index: nil)
      guard processor.instance.broken == nil else { continue }
      var out = WireWriter(
        into: pb_channel_request(self.owned.child.channel),
        capacity: Int(self.owned.child.channel.pointee.message_capacity))
      processor.instance.writeCreateProcessor(&out, config: processor.config)
      var length: UInt32 = 0
      let seconds = self.options.limits.callSeconds
      guard
        self.owned.child.call(UInt32(out.count), seconds: seconds, reply: &length) == PB_CHANNEL_OK
      else { continue }
      var reply = WireReader(pb_channel_reply(self.owned.child.channel), length: Int(length))
      guard (try? reply.read(UInt32.self)) == PB_OK.rawValue,
        let index = try? reply.read(UInt32.self)
      else { continue }
      processor.bind(self.owned.child.channel, index: index)
    }
    return nil
  }

  /// Has the recreated `instance` start its effects again, the effects of the process that
  /// ended being gone: those its state calls for, when the feature has a resume
  /// (`resume_effects`); else those that still ran, each from the action that started it
  /// (`restart_effects`). Says so when it can do neither. [executor]
  func resume(_ instance: IsolatedInstance) {
    guard let (status, _) = self.callDuringRestart(instance, .resumeEffects, read: { _ in () })
    else { return }
    guard status == PB_ERR_UNSUPPORTED else { return }
    let running = instance.withRunningEffects { running in
      defer { _ = running.takeForRestart() }
      return running
    }
    let name = "\(self.description.id)\(instance.label.map { " (\($0))" } ?? "")"
    guard running.isKnown else {
      guard running.hasReduced else { return }
      instance.context.log(
        PB_LOG_WARNING,
        "\(name): any effects it ran ended with its process; to start them again after a "
          + "restart, give the feature a resume (PluginFeature.resume, or resume_effects in C)")
      return
    }
    for origin in running.origins {
      let reply = self.callDuringRestart(instance, .restartEffects) { out in
        out.put(bytes: origin.state)
        out.put(bytes: origin.action)
        out.put(UInt32(origin.effects.count))
        for effect in origin.effects { out.put(effect) }
      } read: {
        try $0.optionalBytes()
      }
      guard let (status, origins) = reply else { return }
      instance.withRunningEffects {
        $0.update(origins, reduced: origin.action, on: origin.state)
      }
      if status != PB_OK {
        instance.context.log(
          PB_LOG_WARNING,
          "\(name): the effects of an action it reduced before its process ended could not be "
            + "started again (status \(status.rawValue)); send that action again to restart them")
      }
    }
  }

  /// One call on `instance` in the new process on the plugin's executor; nil when the
  /// process did not answer. The plugin's notes go to the instance's context. [executor]
  func callDuringRestart<Result>(
    _ instance: IsolatedInstance, _ call: IsolatedCall,
    write: (inout WireWriter) -> Void = { _ in }, read: (inout WireReader) throws -> Result
  ) -> (pb_status, Result)? {
    var out = WireWriter(
      into: pb_channel_request(self.owned.child.channel),
      capacity: Int(self.owned.child.channel.pointee.message_capacity))
    out.put(call.rawValue)
    out.put(instance.id)
    write(&out)
    guard !out.overflowed else { return nil }
    var length: UInt32 = 0
    let seconds = self.options.limits.callSeconds
    guard
      self.owned.child.call(UInt32(out.count), seconds: seconds, reply: &length) == PB_CHANNEL_OK
    else { return nil }
    var reply = WireReader(pb_channel_reply(self.owned.child.channel), length: Int(length))
    guard let status = try? reply.read(UInt32.self), let result = try? read(&reply),
      let count = try? reply.read(UInt32.self)
    else { return nil }
    var notes: [PluginNote] = []
    for _ in 0..<count {
      guard let note = try? PluginNote.read(from: &reply) else { break }
      notes.append(note)
    }
    apply(notes, to: instance.context)
    return (pb_status(rawValue: status), result)
  }

  /// Creates `instance` again in the new process, from its last state. [executor]
  func recreate(_ instance: IsolatedInstance) -> String? {
    var out = WireWriter(
      into: pb_channel_request(self.owned.child.channel),
      capacity: Int(self.owned.child.channel.pointee.message_capacity))
    instance.writeCreate(&out)
    var length: UInt32 = 0
    let seconds = self.options.limits.callSeconds
    guard
      self.owned.child.call(UInt32(out.count), seconds: seconds, reply: &length) == PB_CHANNEL_OK
    else { return "its process ended again while the instance was recreated" }
    var reply = WireReader(pb_channel_reply(self.owned.child.channel), length: Int(length))
    guard let status = try? reply.read(UInt32.self), status == PB_OK.rawValue else {
      return "the plugin refused its own last state when it was started again"
    }
    return nil
  }
}
