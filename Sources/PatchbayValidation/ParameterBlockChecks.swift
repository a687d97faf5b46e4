/// Processor, parameters: the parameter block is the processor's to read during `process`,
/// and nobody's at any other time.
extension ValidationSuite {
  static let parameters: [ValidationTest] = [
    ValidationTest(
      "processor.parameters", level: 3, inProcessOnly: true,
      "the parameter block is read only inside process: lent out read-only for the call and "
        + "taken back after it, a write in process or a touch after it (reduce, render, "
        + "snapshot, a thread of the plugin's) faults and fails"
    ) { context in
      guard let (_, audio) = try context.processorFeatures() else {
        return .skip("no feature has a processor")
      }
      var periods = 0
      for feature in audio {
        let harness = try ProcessorHarness(feature, context, sampleRate: 44_100, channels: 2)
        defer { harness.close() }
        try harness.workout(context.scaled(64), context) { index in
          context.step("render, after period \(index)")
          _ = try? harness.handle.render()
          context.step("snapshot, after period \(index)")
          _ = try harness.handle.snapshot()
          periods += 1
        }
      }
      return .pass(
        "\(periods) period(s) of \(audio.map(\.id).joined(separator: ", ")): the block was "
          + "touched only while lent out")
    }
  ]
}
