import ArgumentParser
import Foundation
import PatchbayAudioDevice

/// `patchbay audio`: the audio output, from the command line.
struct AudioCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "audio",
    abstract: "List audio outputs, and play a test tone through the audio thread.",
    subcommands: [Devices.self, Tone.self]
  )

  struct Devices: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "List the audio outputs --device takes.")

    func run() async throws {
      Terminal.out("null            plays nothing, paced by CLOCK_MONOTONIC (no sound card needed)")
      Terminal.out("file:PATH       a 16-bit WAV file, written through ALSA's file plugin")
      Terminal.out(
        ALSAOutput.hasSoundCard
          ? "auto            ALSA \"default\" (a sound card is present)"
          : "auto            null (no sound card: /proc/asound/cards lists none)")
      Terminal.out("\nALSA PCMs (--device NAME, or alsa:NAME):")
      for device in ALSAOutput.devices() { Terminal.out("  \(device)") }
    }
  }

  struct Tone: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Play a sine tone: a producer thread fills a ring, the audio thread plays it.",
      discussion: """
        Prints the device, the format, how the audio thread is scheduled, then frames written, \
        periods, underruns (recovered) and starved periods (the ring ran dry). The length is \
        rounded up to whole periods. On the null device it also prints how late the periods \
        woke (p50, p99) and how many were over a period late.

        Examples:
          patchbay audio tone --freq 440 --seconds 2 --device file:out.wav
          patchbay audio tone --device null --period 128 --seconds 10
        """
    )

    @Option(help: "Frequency in Hz.") var freq: Double = 440
    @Option(help: "Length in seconds.") var seconds: Double = 2
    @Option(help: "Output: auto, null, file:PATH, an ALSA PCM name (see `patchbay audio devices`).")
    var device: String = "auto"
    @Option(help: "Frames per period.") var period: Int = 128
    @Option(help: "Sample rate in Hz.") var rate: Int = 48_000
    @Option(help: "Channels.") var channels: Int = 2
    @Option(help: "Amplitude, 0–1.") var amplitude: Float = 0.25

    func validate() throws {
      guard self.freq > 0, self.seconds > 0, self.period > 0, self.rate > 0,
        (1...32).contains(self.channels),
        (0...1).contains(self.amplitude)
      else {
        throw ValidationError(
          "--freq, --seconds, --period and --rate are positive; --channels is 1–32; --amplitude is 0–1."
        )
      }
    }

    func run() async throws {
      let wanted = AudioFormat(
        sampleRate: self.rate, channels: self.channels, periodFrames: self.period)
      let (output, note): (any AudioOutput, String?)
      do {
        (output, note) = try AudioDevice.open(self.device, format: wanted)
      } catch {
        throw CommandFailure(error.description)
      }
      let format = output.format
      let periods = Int(
        (self.seconds * Double(format.sampleRate) / Double(format.periodFrames)).rounded(.up))
      let frames = periods * format.periodFrames
      let ring = SPSCRing<Float>(minimumCapacity: 16 * format.periodSamples)
      let tone = SineTone(frequency: self.freq, amplitude: self.amplitude, format: format)
      let engine = AudioEngine(output: output, sources: [ring])

      if let note { Terminal.out("note:      \(note)") }
      Terminal.out("device:    \(output.name)")
      Terminal.out(
        "format:    \(format) (\(String(format: "%.2f", Double(format.periodNanoseconds) / 1e6)) ms)"
      )
      // Fill the ring before the audio thread starts, then keep it topped up.
      let producer = Thread { tone.play(frames: frames, into: ring) }
      producer.start()
      while ring.availableToWrite > format.periodSamples
        && ring.availableToRead < frames * format.channels
      {
        try await Task.sleep(for: .milliseconds(1))
      }
      engine.start(periods: periods)
      Terminal.out("thread:    \(engine.schedulingNote)")
      await Task.detached { engine.wait() }.value
      output.close()

      let statistics = engine.statistics
      Terminal.out(
        "frames:    \(statistics.periods * format.periodFrames) written (\(statistics.periods) periods)"
      )
      Terminal.out("underruns: \(statistics.underruns)")
      Terminal.out("starved:   \(statistics.starvedPeriods) period(s)")
      if let paced = output as? PacedNullOutput {
        let late = paced.lateness.count(over: Int(format.periodNanoseconds / 1_000))
        Terminal.out(
          "lateness:  p50 \(paced.lateness.percentile(50)) µs, p99 \(paced.lateness.percentile(99)) µs, \(late) period(s) over one period late"
        )
      }
      while let event = engine.events.pop() {
        if event.kind == .failed {
          throw CommandFailure(
            "the output failed at period \(event.period): \(String(cString: strerror(abs(event.code))))."
          )
        }
      }
    }
  }
}
