import PatchbayABI

extension ProcessorHarness {
  /// Renders `periods` periods of clap-validator's sizes and random ones up to 2,048 frames,
  /// each with a note on (and the last note's off) at its first frame, and sends one of the
  /// feature's generated actions before every fourth, with its parameters written; `after` runs
  /// on this thread after each period, with its index.
  func workout(
    _ periods: Int, _ context: ValidationContext, salt: UInt64 = 0,
    after: (Int) throws -> Void = { _ in }
  ) throws {
    var random = context.random(salt)
    let actions = ActionGenerator(self.feature).sequence(
      periods / 4 + 1, seed: context.seed &+ salt)
    for index in 0..<periods {
      if index % 4 == 0, index / 4 < actions.count {
        let text = actions[index / 4].actionText
        context.step("reduce \(text) (between periods)")
        self.send(text, context)
      }
      let frames =
        index < clapValidatorPeriodSizes.count
        ? clapValidatorPeriodSizes[index] : 1 + Int(random.next() % 2_048)
      let note = UInt8(36 + index % 48)
      let midi = [
        pb_midi_event(frame: 0, size: 3, bytes: (0x80, note &- 1, 0)),
        pb_midi_event(frame: 0, size: 3, bytes: (0x90, note, 100)),
      ]
      context.step("process: \(self.feature.id), period \(index) of \(frames) frames")
      self.period(frames: frames, midi: midi)
      try after(index)
    }
  }
}
