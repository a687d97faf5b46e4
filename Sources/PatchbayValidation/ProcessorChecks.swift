import Foundation
import PatchbayAudioDevice
import PatchbayAudioGraph
import PatchbayConfig
import PatchbayHost
import PatchbayLoader
import PatchbayMIDI

/// Processor: a feature's realtime half at the period sizes, rates and channel counts hosts
/// use, on silence and under MIDI; its samples finite, normal and within ±4, its events within
/// the declared maximum.
extension ValidationSuite {
  static let processor: [ValidationTest] = [
    ValidationTest(
      "processor.periods", level: 3,
      "periods of 1 to 4,096 frames (clap-validator's sizes and random ones) at 44.1, 48, 96 kHz "
        + "and 37.8 kHz, 1 and 2 channels, silent and under MIDI: no NaN, ∞, subnormal or "
        + "sample beyond ±4; events within the declared maximum"
    ) { context in
      guard let (plugin, audio) = try context.processorFeatures() else {
        return .skip("no feature has a processor")
      }
      var periods = 0
      for feature in audio {
        for rate in [44_100, 48_000, 96_000, 37_800] {
          for channels in [1, 2] {
            periods += try renderPeriods(
              feature, plugin, rate: rate, channels: channels, context)
          }
        }
      }
      return .pass("\(periods) period(s) of \(audio.map(\.id).joined(separator: ", ")), clean")
    }
  ]
}

/// The sizes clap-validator renders, then random ones up to 2,048.
let clapValidatorPeriodSizes = [1, 10, 17, 256, 1_024, 1_536, 2_027, 4_096]

/// Renders `feature`'s processor alone in an app of its own, with the safety checks off (they
/// would mend what this looks for), through each period size twice: once silent, once with
/// notes and random actions between periods.
private func renderPeriods(
  _ feature: LoadedFeature, _ plugin: LoadedPlugin, rate: Int, channels: Int,
  _ context: ValidationContext
) throws -> Int {
  let config = try AppConfig(
    parsing: AppConfig.oneFeature(feature.id, of: context.pluginPath), file: "validate.toml")
  let app = try AppRuntime(config: config, registry: try config.loadPlugins(with: config.loader()))
  let format = AudioFormat(sampleRate: rate, channels: channels, periodFrames: 4_096)
  let graph = ProcessorGraph(format: format, offline: true)
  graph.safetyChecks = false
  try app.attach(graph)
  var random = context.random(UInt64(rate + channels))
  let sizes =
    clapValidatorPeriodSizes + (0..<context.scaled(8)).map { _ in 1 + Int(random.next() % 2_048) }
  let actions = ActionGenerator(feature).sequence(sizes.count * 2, seed: context.seed)
  let mix = UnsafeMutablePointer<Float>.allocate(capacity: 4_096 * channels)
  defer { mix.deallocate() }
  var time: UInt64 = 0
  var rendered = 0
  var after = ""
  for pass in 0..<2 {
    for (index, frames) in sizes.enumerated() {
      let where_ = "\(feature.id) at \(rate) Hz, \(channels) channel(s), a \(frames)-frame period"
      if pass == 1 {
        // Under MIDI and actions: a note on, the action, a note off a period later.
        let note = UInt8(36 + index % 48)
        app.receive(MIDIEvent(.noteOn, channel: 0, note, 100), atFrame: time)
        let action = actions[index]
        context.step("reduce \(action.actionText) (between periods)")
        try? app.send("f", action.actionText)
        after = " after \(action.actionText)"
        app.receive(MIDIEvent(.noteOff, channel: 0, note &- 1, 0), atFrame: time)
      }
      mix.update(repeating: 0, count: frames * channels)
      context.step("process: \(where_)" + (pass == 1 ? ", under MIDI" : ", silent"))
      graph.render(into: mix, frames: frames, steadyTime: time)
      time += UInt64(frames)
      app.deliverProcessorEvents()
      rendered += 1
      for sample in 0..<(frames * channels) {
        let value = mix[sample]
        let problem: String? =
          value.isNaN
          ? "NaN"
          : value.isInfinite
            ? "an infinity"
            : value.isSubnormal
              ? "a subnormal (\(value))"
              : abs(value) > 4 ? "\(value), beyond ±4" : nil
        if let problem {
          throw ValidationFailure(
            "\(where_)" + (pass == 1 ? " under MIDI\(after)" : ", silent")
              + ": sample \(sample) (frame \(sample / channels)) is \(problem)")
        }
      }
      if graph.droppedEvents > 0 {
        throw ValidationFailure(
          "\(where_): the processor emitted more events in one period than the "
            + "\(feature.processorInfo?.maxEvents ?? 0) it declares (\(graph.droppedEvents) dropped)"
        )
      }
    }
  }
  return rendered
}
