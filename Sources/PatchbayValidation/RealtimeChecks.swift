import Foundation

/// Processor, realtime: what `process` calls, counted on the audio thread by `patchbay-probe`;
/// and the cost of subnormal input, reported.
extension ValidationSuite {
  static let realtime: [ValidationTest] = [
    ValidationTest(
      "processor.realtime", level: 3, inProbe: true,
      "process allocates nothing, takes no lock and makes no system call (malloc, pthread, "
        + "futex, I/O and sleeps counted on the audio thread) under MIDI and parameter changes; "
        + "the slowdown on subnormal input reported"
    ) { context in
      guard let (_, audio) = try context.processorFeatures() else {
        return .skip("no feature has a processor")
      }
      guard let probe = RealtimeProbe.installed else {
        return .skip("runs in patchbay-probe, which counts the calls")
      }
      if let broken = probe.selfTest() { return .fail(broken) }
      var notes: [String] = []
      for feature in audio {
        let harness = try ProcessorHarness(
          feature, context, sampleRate: 48_000, channels: 2, watch: probe.watch)
        defer { harness.close() }
        try harness.workout(16, context, salt: 1)  // a first call may set up; the rest must not
        probe.reset()
        let periods = context.scaled(400)
        try harness.workout(periods, context, salt: 2)
        let counts = probe.counts()
        guard counts.isEmpty else {
          throw ValidationFailure(
            "\(feature.id): in \(periods) periods, process \(describe(counts)); do it in the "
              + "processor's create, or hand it to the reducer with events->push")
        }
        let slowdown = subnormalSlowdown(harness, context)
        notes.append(
          "\(feature.id): \(periods) periods, none; subnormal input "
            + String(format: "%.2f", slowdown) + "× the time of silence")
      }
      return .pass(notes.joined(separator: "; "))
    }
  ]
}

/// `allocated 400 times; locked (pthread_mutex_lock × 400); made system calls (fputs × 400)`
func describe(_ counts: RealtimeProbe.Counts) -> String {
  var parts: [String] = []
  if counts.allocations > 0 { parts.append("allocated \(counts.allocations) times") }
  let list = { (calls: [RealtimeProbe.Counts.Call]) in
    calls.map { "\($0.name) × \($0.count)" }.joined(separator: ", ")
  }
  let locks = counts.calls.filter(\.isLock)
  let system = counts.calls.filter { !$0.isLock }
  if !locks.isEmpty { parts.append("locked (\(list(locks)))") }
  if !system.isEmpty { parts.append("made system calls (\(list(system)))") }
  return parts.joined(separator: "; ")
}

/// How much longer `process` takes on a period whose buffer holds subnormal samples than on
/// silence, as clap-validator reports it: the median of 32 periods of 1,024 frames each way,
/// taken in turns so that load on the machine falls on both alike.
private func subnormalSlowdown(_ harness: ProcessorHarness, _ context: ValidationContext) -> Double
{
  var silent: [UInt64] = []
  var subnormal: [UInt64] = []
  context.step("process: \(harness.feature.id), periods of subnormal samples")
  for _ in 0..<32 {
    silent.append(harness.period(frames: 1_024, fill: 0))
    subnormal.append(harness.period(frames: 1_024, fill: Float.leastNormalMagnitude / 4))
  }
  let median = { (values: [UInt64]) in Double(max(values.sorted()[values.count / 2], 1)) }
  return median(subnormal) / median(silent)
}
