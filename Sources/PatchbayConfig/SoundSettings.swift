import PatchbayAudioDevice
import PatchbayMIDI
import PatchbayTOML

/// How an app plays and hears: `[audio]` and `[midi]` in its config, overridable by
/// `patchbay run --audio DEVICE --midi INPUT`.
///
/// ```toml
/// [audio]
/// device = "auto"      # auto | null | none | default | hw:0 | file:out.wav | alsa:NAME
/// backend = "alsa"     # alsa (device above) | jack (a client of the JACK server)
/// client-name = "patchbay"   # jack: the client's name, so its ports are patchbay:out_1, …
/// rate = 48000         # frames per second (jack: the server's)
/// period = 128         # frames per period
/// channels = 2
///
/// [midi]
/// input = "none"       # none | seq | hw:1,0,0 | fifo:PATH | file:PATH | smf:PATH | stdin | jack
/// ```
///
/// The defaults work on a machine without a sound card: `auto` picks ALSA `default` when the
/// machine has a card and the paced null device when not, and no MIDI input is opened.
public struct SoundSettings: Sendable, Equatable {
  /// Who plays the mix: ALSA, through ``device``, or a JACK server the app joins as a client.
  public enum Backend: String, Sendable, Equatable, CaseIterable {
    case alsa, jack
  }

  /// The output device (see ``AudioDevice``); `none` plays nothing.
  public var device: String = "auto"
  public var backend: Backend = .alsa
  /// JACK: the client's name (its ports are `NAME:out_1`, …).
  public var clientName = "patchbay"
  /// JACK: the server to join; nil for the default one (`$JACK_DEFAULT_SERVER`).
  public var jackServer: String?
  /// JACK: whether the ports are connected to the server's physical playback ports at start.
  public var connectsToPlayback = true
  public var format = AudioFormat(sampleRate: 48_000, channels: 2, periodFrames: 128)
  public var midi: MIDIInputSpec = .none

  public init() {}

  /// Whether an audio output is to be opened.
  public var playsAudio: Bool { self.backend == .jack || self.device != "none" }

  /// These settings with the output device and the MIDI input given as text (`patchbay run
  /// --audio DEVICE --midi INPUT`), which win over the config's; nil keeps the config's.
  /// `jack` (or `jack:SERVER`) joins a JACK server instead of opening a device.
  /// Throws, naming the problem, when `midiInput` names no input.
  ///
  /// ```swift
  /// try app.config.sound.overriding(device: "null", midiInput: "fifo:/tmp/keys")
  /// try app.config.sound.overriding(device: "jack:studio", midiInput: nil)
  /// ```
  public func overriding(device: String?, midiInput: String?) throws(MIDIError) -> SoundSettings {
    var settings = self
    if let device {
      if device == "jack" || device.hasPrefix("jack:") {
        settings.backend = .jack
        let server = device.dropFirst(4).drop { $0 == ":" }
        if !server.isEmpty { settings.jackServer = String(server) }
      } else {
        settings.backend = .alsa
        settings.device = device
      }
    }
    if let midiInput { settings.midi = try MIDIInputSpec(midiInput) }
    return settings
  }

  static let rates = 8_000...384_000
  static let periods = 16...8_192
  static let channels = 1...8
}

extension ConfigReader {
  /// `[audio]` and `[midi]`: both optional.
  mutating func readSound(audio: TOMLDocument.Table?, midi: TOMLDocument.Table?) -> SoundSettings {
    var settings = SoundSettings()
    if let audio {
      self.checkKeys(audio, in: "audio")
      if let device = self.string(audio, "device") { settings.device = device }
      if let backend = self.string(audio, "backend") {
        if let known = SoundSettings.Backend(rawValue: backend) {
          settings.backend = known
        } else {
          self.error(
            audio["backend"]?.line, "audio.backend",
            .badAudioBackend(backend))
        }
      }
      if let name = self.string(audio, "client-name") { settings.clientName = name }
      if let server = self.string(audio, "server") { settings.jackServer = server }
      if let connect = self.bool(audio, "connect") { settings.connectsToPlayback = connect }
      settings.format.sampleRate =
        self.integer(audio, "rate", in: SoundSettings.rates) ?? settings.format.sampleRate
      settings.format.periodFrames =
        self.integer(audio, "period", in: SoundSettings.periods) ?? settings.format.periodFrames
      settings.format.channels =
        self.integer(audio, "channels", in: SoundSettings.channels) ?? settings.format.channels
    }
    if let midi {
      self.checkKeys(midi, in: "midi")
      if let input = self.string(midi, "input") {
        do {
          settings.midi = try MIDIInputSpec(input)
        } catch {
          self.error(midi["input"]?.line, "midi.input", .badMIDIInput(input))
        }
      }
    }
    return settings
  }

  /// An integer in `range`, or nil (with an error) when it is something else.
  mutating func integer(_ table: TOMLDocument.Table, _ key: String, in range: ClosedRange<Int>)
    -> Int?
  {
    guard let value = table[key] else { return nil }
    guard case .integer(let number) = value.kind else {
      self.error(
        value.line, "\(table.name).\(key)",
        .wrongType(expected: "an integer", found: value.typeName))
      return nil
    }
    guard range.contains(Int(number)) else {
      self.error(
        value.line, "\(table.name).\(key)",
        .outOfRange(Int(number), range.lowerBound, range.upperBound))
      return nil
    }
    return Int(number)
  }
}
