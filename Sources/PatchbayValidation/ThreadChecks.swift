import CPatchbayCrash
import PatchbayLoader

/// Threads: each call on the thread its header annotation names, and the plugin calling back
/// into the host only from where it may.
extension ValidationSuite {
  static let threads: [ValidationTest] = [
    ValidationTest(
      "threads", level: 3, inProcessOnly: true,
      "the [main-thread] calls on one thread, process on an audio thread of its own; the plugin "
        + "calls [main-thread] host functions only from the host's calls, and from process no "
        + "host function but host->now and the pushes"
    ) { context in
      let plugin = try context.load()
      var actions = 0
      for feature in plugin.features {
        let instance = try context.instance(of: feature)
        let sequence = ActionGenerator(feature).sequence(context.scaled(64), seed: context.seed)
        for (index, action) in sequence.enumerated() {
          context.step("reduce \(action.actionText)", action: index)
          instance.send(action.bytes)
          actions += 1
        }
        try checkHostErrors(feature, context)
      }
      var periods = 0
      let audio = plugin.features.filter(\.hasProcessor)
      for feature in audio {
        let harness = try ProcessorHarness(feature, context, sampleRate: 48_000, channels: 1)
        defer { harness.close() }
        pb_audio_misuse_reset()
        let count = context.scaled(64)
        try harness.workout(count, context)
        periods += count
        try checkHostErrors(feature, context)
        let misuses = pb_audio_misuse_count()
        if misuses > 0 {
          let first = pb_audio_misuse_first().map { String(cString: $0) } ?? "a host function"
          throw ValidationFailure(
            "\(feature.id): process called \(first) from the audio thread (\(misuses) host "
              + "call(s) in \(count) periods), where a processor may call only host->now, "
              + "events->push and midi_out->push: push an event for the reducer instead")
        }
      }
      return .pass(
        "\(actions) action(s), no [main-thread] host call from another thread"
          + (audio.isEmpty
            ? "" : "; \(periods) period(s) on an audio thread, no host call from it"))
    }
  ]
}

/// Fails when the host refused a [main-thread] host function the plugin called from a thread
/// of its own (the host logs it and goes on).
private func checkHostErrors(_ feature: LoadedFeature, _ context: ValidationContext) throws {
  let offThread = context.takeHostErrors().filter { $0.contains("called from another thread") }
  guard let first = offThread.first else { return }
  throw ValidationFailure(
    "\(feature.id): a [main-thread] host function was called from a thread of the plugin's "
      + "own (\(offThread.count) time(s)): \(first)")
}
