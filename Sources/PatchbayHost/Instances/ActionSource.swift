/// Where an action came from: a command of the host, an effect of the plugin, MIDI input
/// ("patchbay.midi/1"), an event its processor sent (patchbay/process.h), or a value another
/// feature published ("patchbay.shared/1").
public enum ActionSource: String, Sendable, CaseIterable {
  case command
  case effect
  case midi
  case processor
  case shared
}
