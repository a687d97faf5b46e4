/// A MIDI message as a Swift feature's reducer hears it ("patchbay.midi/1"): give the
/// feature's `Action` a `case midi(MIDIMessage)` and set ``PluginFeature/midiChannels``.
///
/// ```swift
/// public static let midiChannels: UInt16 = 0xFFFF   // every channel
/// public enum Action: Codable, Equatable, Sendable { case midi(MIDIMessage), … }
/// // reduce: case .midi(.noteOn(_, let note, let velocity)): …
/// ```
///
/// Channels are 1–16; a note-on with velocity 0 arrives as a note-off.
public enum MIDIMessage: Codable, Equatable, Sendable {
  case noteOn(channel: Int, note: Int, velocity: Int)
  case noteOff(channel: Int, note: Int, velocity: Int)
  case controlChange(channel: Int, controller: Int, value: Int)
  case programChange(channel: Int, program: Int)
  /// -8192 to 8191.
  case pitchBend(channel: Int, value: Int)
  case channelPressure(channel: Int, pressure: Int)
  case polyPressure(channel: Int, note: Int, pressure: Int)
  case start
  case stop
  case `continue`
}
