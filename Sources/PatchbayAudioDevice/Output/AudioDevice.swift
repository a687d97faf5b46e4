import CPatchbayALSAErrors

/// Opens an output from a `--device` string.
///
/// | device | output |
/// |---|---|
/// | (none), `auto` | ALSA `default` when the machine has a sound card, else `null` |
/// | `null` | ``PacedNullOutput``: plays nothing, in real time |
/// | `file:PATH` | a 16-bit WAV file through ALSA's `file` plugin |
/// | `alsa:NAME` | the ALSA PCM `NAME` (`alsa:null` is ALSA's own, unpaced, null PCM) |
/// | anything else | the ALSA PCM of that name: `default`, `hw:0`, `plughw:0,0` |
public enum AudioDevice {
  /// The output, and a note on what `auto` chose and why (nil when nothing was chosen).
  public static func open(_ device: String?, format: AudioFormat) throws(AudioError) -> (
    any AudioOutput, String?
  ) {
    switch device {
    case nil, "auto":
      if ALSAOutput.hasSoundCard {
        return (
          try ALSAOutput(device: "default", format: format),
          "a sound card is present: using ALSA \"default\""
        )
      }
      return (
        PacedNullOutput(format: format),
        "no sound card (/proc/asound/cards lists none): using the paced null device"
      )
    case "null":
      return (PacedNullOutput(format: format), nil)
    case let device? where device.hasPrefix("file:"):
      let path = String(device.dropFirst(5))
      guard !path.isEmpty else {
        throw AudioError("--device file: needs a path: --device file:out.wav")
      }
      return (try ALSAOutput(wavFile: path, format: format), nil)
    case let device? where device.hasPrefix("alsa:"):
      return (try ALSAOutput(device: String(device.dropFirst(5)), format: format), nil)
    case let device?:
      return (try ALSAOutput(device: device, format: format), nil)
    }
  }
}

/// ALSA's own messages, kept out of stderr (Patchbay reports errors itself).
public enum ALSAMessages {
  /// Captures ALSA's messages from now on. Idempotent; call before opening ALSA devices.
  public static func capture() { patchbay_alsa_errors_capture() }

  /// The last message ALSA gave on this thread, in parentheses, or "".
  public static var last: String {
    let text = String(cString: patchbay_alsa_errors_last())
    return text.isEmpty ? "" : " (ALSA: \(text))"
  }
}
