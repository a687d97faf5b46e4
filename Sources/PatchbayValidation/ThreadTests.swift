import PatchbayCrash

/// Threads: each call on the thread its header annotation names, and the processor calling
/// back into the host only where it may.
extension ValidationSuite {
  static let threads: [ValidationTest] = [
    ValidationTest(
      "threads", level: 3, inProcessOnly: true,
      "the [main-thread] calls on one thread, process on an audio thread of its own; from "
        + "process the plugin calls no host function but host->now and the pushes"
    ) { context in
      guard let (_, audio) = try context.processorFeatures() else {
        return .skip("no feature has a processor")
      }
      var periods = 0
      for feature in audio {
        let harness = try ProcessorHarness(feature, context, sampleRate: 48_000, channels: 1)
        defer { harness.close() }
        pb_audio_misuse_reset()
        let count = context.scaled(64)
        try harness.workout(count, context)
        periods += count
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
        "\(periods) period(s) of \(audio.map(\.id).joined(separator: ", ")) on an audio "
          + "thread, no host call from it")
    }
  ]
}
