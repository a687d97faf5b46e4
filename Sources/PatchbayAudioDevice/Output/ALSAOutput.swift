import CALSA
import Foundation

/// Playback through libasound: a sound card (`default`, `hw:0`, `plughw:0,0`), ALSA's `null`
/// PCM, or a WAV file through ALSA's `file` plugin.
///
/// ```swift
/// let card = try ALSAOutput(device: "default", format: AudioFormat(periodFrames: 128))
/// let wav = try ALSAOutput(wavFile: "out.wav", format: AudioFormat())
/// ```
///
/// Samples are `FLOAT_LE` interleaved; the buffer holds four periods. An underrun (EPIPE) is
/// recovered with `snd_pcm_recover` and reported as ``AudioWriteResult/recoveredUnderrun``.
public final class ALSAOutput: AudioOutput, @unchecked Sendable {
  public let name: String
  public let format: AudioFormat
  public let pacesItself: Bool
  private let pcm: OpaquePointer

  /// Opens the ALSA PCM `device` for playback.
  public init(device: String, format: AudioFormat) throws(AudioError) {
    ALSAMessages.capture()
    var pcm: OpaquePointer?
    let status = snd_pcm_open(&pcm, device, SND_PCM_STREAM_PLAYBACK, 0)
    guard status >= 0, let pcm else {
      throw AudioError(
        "ALSA device '\(device)': \(String(cString: snd_strerror(status))). List devices with "
          + "`patchbay audio devices`, or use --device null (no sound card needed).")
    }
    self.pcm = pcm
    self.name = "ALSA \"\(device)\""
    // ALSA's null PCM takes periods as fast as they come; so does the file plugin.
    self.pacesItself = device != "null"
    self.format = try Self.configure(pcm, device: device, format)
  }

  /// A 16-bit WAV file written by ALSA's `file` plugin, behind `plug`, which converts the
  /// engine's floats (the file plugin's own float WAV header is wrong, so it gets S16_LE).
  public init(wavFile path: String, format: AudioFormat) throws(AudioError) {
    let absolute = URL(fileURLWithPath: path).standardizedFileURL.path
    guard !absolute.contains("\"") else {
      throw AudioError("\(path): a WAV path cannot contain '\"'.")
    }
    // The file plugin opens the file only when the first period comes: check the folder now.
    let folder = URL(fileURLWithPath: absolute).deletingLastPathComponent().path
    guard access(folder, W_OK) == 0 else {
      throw AudioError(
        "\(path): cannot write into \(folder) (\(String(cString: strerror(errno)))). Pick a folder that exists and is writable."
      )
    }
    let definition = """
      pcm.patchbay_wav {
        type plug
        slave {
          pcm { type file slave { pcm { type null } } file "\(absolute)" format "wav" }
          format S16_LE
        }
      }
      """
    ALSAMessages.capture()
    var config: OpaquePointer?
    var input: OpaquePointer?
    guard snd_config_top(&config) >= 0, let config,
      snd_input_buffer_open(&input, definition, definition.utf8.count) >= 0, let input
    else { throw AudioError("\(path): cannot build ALSA's file plugin configuration.") }
    defer { snd_config_delete(config) }
    let loaded = snd_config_load(config, input)
    snd_input_close(input)
    guard loaded >= 0 else {
      throw AudioError(
        "\(path): ALSA refused the file plugin configuration (\(String(cString: snd_strerror(loaded))))."
      )
    }
    var pcm: OpaquePointer?
    let status = snd_pcm_open_lconf(&pcm, "patchbay_wav", SND_PCM_STREAM_PLAYBACK, 0, config)
    guard status >= 0, let pcm else {
      throw AudioError(
        "\(path): ALSA's file plugin could not open it: \(String(cString: snd_strerror(status))). Check that its folder exists and is writable."
      )
    }
    self.pcm = pcm
    self.name = "WAV file \(path) (16-bit, through ALSA's file plugin)"
    self.pacesItself = false
    self.format = try Self.configure(pcm, device: path, format)
  }

  private static func configure(_ pcm: OpaquePointer, device: String, _ wanted: AudioFormat)
    throws(AudioError) -> AudioFormat
  {
    var hardware: OpaquePointer?
    snd_pcm_hw_params_malloc(&hardware)
    defer { snd_pcm_hw_params_free(hardware) }
    var rate = UInt32(wanted.sampleRate)
    var period = snd_pcm_uframes_t(wanted.periodFrames)
    var buffer = snd_pcm_uframes_t(wanted.periodFrames * 4)
    var direction: Int32 = 0
    let steps: [(String, () -> Int32)] = [
      ("any", { snd_pcm_hw_params_any(pcm, hardware) }),
      ("access", { snd_pcm_hw_params_set_access(pcm, hardware, SND_PCM_ACCESS_RW_INTERLEAVED) }),
      ("format FLOAT_LE", { snd_pcm_hw_params_set_format(pcm, hardware, SND_PCM_FORMAT_FLOAT_LE) }),
      (
        "\(wanted.channels) channels",
        { snd_pcm_hw_params_set_channels(pcm, hardware, UInt32(wanted.channels)) }
      ),
      (
        "rate \(wanted.sampleRate)",
        { snd_pcm_hw_params_set_rate_near(pcm, hardware, &rate, &direction) }
      ),
      (
        "period \(wanted.periodFrames)",
        { snd_pcm_hw_params_set_period_size_near(pcm, hardware, &period, &direction) }
      ),
      ("buffer", { snd_pcm_hw_params_set_buffer_size_near(pcm, hardware, &buffer) }),
      ("hw params", { snd_pcm_hw_params(pcm, hardware) }),
    ]
    for (step, call) in steps {
      let status = call()
      if status < 0 {
        snd_pcm_close(pcm)
        throw AudioError(
          "ALSA device '\(device)' refused \(step): \(String(cString: snd_strerror(status))).")
      }
    }
    return AudioFormat(sampleRate: Int(rate), channels: wanted.channels, periodFrames: Int(period))
  }

  public func write(_ samples: UnsafePointer<Float>) -> AudioWriteResult {
    var offset = 0
    var recovered = false
    let frames = self.format.periodFrames
    while offset < frames {
      let written = snd_pcm_writei(
        self.pcm, samples + offset * self.format.channels, snd_pcm_uframes_t(frames - offset))
      if written >= 0 {
        offset += Int(written)
        continue
      }
      let status = snd_pcm_recover(self.pcm, Int32(written), 1)
      guard status >= 0 else { return .failed(status) }
      recovered = true
    }
    return recovered ? .recoveredUnderrun : .written
  }

  public func close() {
    snd_pcm_drain(self.pcm)
    snd_pcm_close(self.pcm)
  }

  /// The PCM devices ALSA knows (its "hints"), as `name — description` lines.
  public static func devices() -> [String] {
    var hints: UnsafeMutablePointer<UnsafeMutableRawPointer?>?
    guard snd_device_name_hint(-1, "pcm", &hints) >= 0, let hints else { return [] }
    defer { snd_device_name_free_hint(hints) }
    var lines: [String] = []
    var index = 0
    while let hint = hints[index] {
      index += 1
      let field = { (key: String) -> String? in
        guard let value = snd_device_name_get_hint(hint, key) else { return nil }
        defer { free(value) }
        return String(cString: value)
      }
      guard let name = field("NAME") else { continue }
      if let direction = field("IOID"), direction == "Input" { continue }
      let description = (field("DESC") ?? "").split(separator: "\n").joined(separator: " — ")
      lines.append(description.isEmpty ? name : "\(name) — \(description)")
    }
    return lines
  }

  /// Whether the machine has a sound card (`/proc/asound/cards` lists one).
  public static var hasSoundCard: Bool {
    guard let cards = try? String(contentsOfFile: "/proc/asound/cards", encoding: .utf8) else {
      return false
    }
    return !cards.contains("no soundcards") && cards.contains("[")
  }
}
