import Foundation
import PatchbayABI
import PatchbayAudioDevice
import PatchbayConfig
import PatchbayHost
import PatchbayMIDI

/// Sound and MIDI: the app's processors in a ``ProcessorGraph``, their events back as actions,
/// MIDI to listening features (docs/ARCHITECTURE.md, "Audio and MIDI").
extension AppRuntime {
  /// Plays every instance that has a processor through `graph`, now and as instances come,
  /// go and swap. Render `graph` from an audio thread (``AudioEngine``) or offline
  /// (``OfflineRender``).
  ///
  /// ```swift
  /// let graph = ProcessorGraph(format: format)
  /// try app.attach(graph)
  /// let engine = AudioEngine(output: try ALSAOutput(device: "default", format: format), renderer: graph)
  /// engine.start()
  /// ```
  public func attach(_ graph: ProcessorGraph) throws(AppError) {
    try self.executor.sync { () throws(AppError) in
      let attached = self.attachedPlayer.attach(graph)
      precondition(attached, "an app plays through one graph")
      for entry in self.owned.instances.entries {
        try graph.play(entry.handle, at: entry.path)
      }
    }
  }

  /// Sends every event the processors pushed since the last call to its instance, as the
  /// action `event_action` makes of it, and frees what the audio thread let go of. The
  /// live runner calls it at least 60 times a second; the offline renderer after each period.
  public func deliverProcessorEvents() {
    self.executor.sync {
      guard let graph = self.audioGraph else { return }
      for (_, slot) in graph.slots {
        if let frame = slot.takeFault() { self.reportMuted(slot, atFrame: frame, in: graph) }
        if let misuse = slot.takeMisuse(), !slot.misuseReported {
          slot.misuseReported = true
          self.reportMisuse(slot, misuse.first)
        }
        // A replay applies the recorded actions of processor events instead.
        guard let handle = slot.handle, slot.descriptor.event_action != nil, !self.replaying
        else { continue }
        while let event = slot.events.pop() {
          let (status, bytes) = slot.instance.eventAction(event)
          if status == PB_OK {
            handle.send(bytes, as: .processor)
          } else if status != PB_ERR_UNSUPPORTED {
            self.fail(
              AppError(
                .failed(
                  path: self.path(of: slot),
                  reason: "event_action failed for event kind \(event.kind): "
                    + (slot.context.takeErrors() ?? "status \(status.rawValue)"))))
          }
        }
      }
      let once = graph.unattributedFault.exchange(0, ordering: .acquiring)
      if once != 0 { self.reportUnattributed(atFrame: once - 1, in: graph) }
      self.afterJob()
      graph.collect()
    }
  }

  /// Says, once, that `slot`'s processor wrote a NaN or an infinite sample and was muted: the
  /// feature, the instance, the period and when it played. [app queue]
  private func reportMuted(_ slot: ProcessorSlot, atFrame frame: UInt64, in graph: ProcessorGraph) {
    self.reportAudio(
      feature: slot.featureID, path: self.path(of: slot),
      "its processor wrote NaN or infinite samples in \(graph.period(at: frame)). They were "
        + "not played, and the processor is muted from then on while the others play; fix its "
        + "process function, then swap it in.")
    self.keepFlight(after: slot.featureID)
  }

  /// Says, once, that `slot`'s processor called `function` (a host function other than `now`)
  /// from the audio thread. [app queue]
  private func reportMisuse(_ slot: ProcessorSlot, _ function: String) {
    self.reportAudio(
      feature: slot.featureID, path: self.path(of: slot),
      "its processor called \(function) from the audio thread, where a processor may call only "
        + "host->now, events->push and midi_out->push. The call went through, but it can lock "
        + "or allocate there and make the sound drop out; push an event for the reducer "
        + "instead, then swap it in.")
  }

  /// Says that a period's mix had NaN or infinite samples that no processor was found writing
  /// again in the periods after it. [app queue]
  private func reportUnattributed(atFrame frame: UInt64, in graph: ProcessorGraph) {
    self.reportAudio(
      feature: "[audio]", path: nil,
      "a processor wrote NaN or infinite samples in \(graph.period(at: frame)), once. They "
        + "were not played; none has written any since, so which one is not known. If one does "
        + "again, it is muted and named.")
  }

  /// A line in the log (a script's stderr, the terminal UI's status) and a failure change
  /// (--print-changes), about the instance at `path`, or the audio as a whole. [app queue]
  private func reportAudio(feature: String, path: String?, _ reason: String) {
    self.hooks.log(feature, .error, path.map { "\($0): \(reason)" } ?? reason)
    self.fail(AppError(.failed(path: path ?? "[audio]", reason: reason)))
  }

  /// The path of the instance `slot` plays, or its feature's id when the instance is gone.
  private func path(of slot: ProcessorSlot) -> String {
    slot.handle.flatMap { handle in
      self.owned.instances.entries.first { $0.handle === handle }?.path.description
    } ?? slot.featureID
  }

  /// Delivers a MIDI message: as an action to every listening instance's reducer, in order
  /// with everything else on the app queue, and to the processors at steady frame `frame`
  /// (offline: the frame it plays at; live: 0, the next period). Call from one thread (the
  /// MIDI pump, or the offline renderer).
  public func receive(_ event: MIDIEvent, atFrame frame: UInt64 = 0) {
    if let graph = self.audioGraph, var raw = event.processorEvent {
      raw.frame = 0
      _ = graph.midiInbox.push(ScheduledMIDI(frame: frame, event: raw))
    }
    guard let action = event.action?.bytes else { return }
    let mask = event.channelMask
    self.executor.enqueue { [weak self] in
      guard let self else { return }
      for entry in self.owned.instances.entries
      where entry.handle.owned.implementation.context.midiChannels.load(ordering: .relaxed) & mask
        != 0
      {
        entry.handle.send(action, as: .midi)
      }
      self.afterJob()
    }
  }

  /// The graph the app plays through, if any. [thread-safe]
  public var audioGraph: ProcessorGraph? {
    self.attachedPlayer.player as? ProcessorGraph
  }
}

/// The graph plays an app's instances: each one whose feature has a processor gets a slot.
extension ProcessorGraph: InstancePlayer {
  /// Creates the processor of `handle`'s current implementation, publishes its parameters
  /// and puts it in the graph (replacing one it had). [app queue]
  package func play(_ handle: FeatureHandle, at path: InstancePath) throws(AppError) {
    let graph = self
    let implementation = handle.owned.implementation
    guard let descriptor = implementation.feature.code.processor else {
      graph.set(nil, for: ObjectIdentifier(handle))
      return
    }
    let config = pb_processor_config(
      struct_size: UInt32(MemoryLayout<pb_processor_config>.size),
      sample_rate: UInt32(graph.format.sampleRate), channel_count: UInt32(graph.format.channels),
      max_frame_count: UInt32(graph.format.periodFrames))
    guard
      let processor = implementation.instance.createProcessor(config, offline: graph.offline)
    else {
      throw AppError(
        .failed(
          path: path.description,
          reason: "\(implementation.feature.id): the processor's create failed: "
            + (implementation.context.takeErrors() ?? "it returned NULL without a reason")))
    }
    let slot = ProcessorSlot(
      featureID: implementation.feature.id, processor: processor, descriptor: descriptor,
      instance: implementation.instance, context: implementation.context, dropped: graph.dropped,
      inserts: implementation.feature.code.processorInserts,
      crashLabels: (
        implementation.feature.code.crashLabel, handle.label.pointer.map { UnsafePointer($0) }
      ))
    slot.handle = handle
    (slot.path, slot.instancePath) = (path.description, path)
    // An effect works on what is heard, soloed or not.
    if !graph.solo.isEmpty, !graph.solo.contains(path.last.key), !slot.inserts {
      slot.unheard = .allocate(capacity: graph.format.periodSamples)
    }
    slot.publishParameters()
    graph.set(slot, for: ObjectIdentifier(handle))
  }

  /// Takes the processors of `handles` out of the graph; they are freed once the audio
  /// thread lets go. [app queue]
  package func stop(_ handles: [FeatureHandle]) {
    let graph = self
    for handle in handles where graph.slot(for: ObjectIdentifier(handle)) != nil {
      graph.set(nil, for: ObjectIdentifier(handle))
    }
  }

  /// Publishes the instance's parameters for its processor. [app queue]
  package func reduced(_ handle: FeatureHandle) {
    guard let slot = self.slot(for: ObjectIdentifier(handle)) else { return }
    // A new processor, made from the state now, replaces the one playing at the next period.
    if slot.instance.takeProcessorRestart(), let path = slot.instancePath {
      do {
        return try self.play(handle, at: path)
      } catch {  // the one playing goes on, with what it has
        handle.owned.implementation.context.log(PB_LOG_ERROR, error.description)
      }
    }
    slot.publishParameters()
  }
}
