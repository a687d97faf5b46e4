import PatchbayPlugin

extension PracticeRoom {
  /// The sequencer: counts beats as the Metronome does — beat n of a start on frame `start +
  /// round(n × 60 / tempo × rate)`, `start` being the first frame of the period in which the
  /// run changed — and at each chord's first beat sends note-offs for the last chord and
  /// note-ons for the new one, at that frame. No sound of its own: the Synth plays them.
  public final class Processor: FeatureProcessor {
    public typealias Parameters = PracticeRoom.Parameters

    let sampleRate: Double
    var run = -1
    var nextBeat = 0
    var nextBeatPosition = 0.0
    /// The notes sounding now (0: none).
    var sounding: (UInt8, UInt8, UInt8, UInt8) = (0, 0, 0, 0)

    public init(configuration: ProcessorConfiguration) {
      self.sampleRate = Double(configuration.sampleRate)
    }

    public func process(_ period: ProcessorPeriod, parameters: Parameters) {
      if parameters.run != self.run {
        self.release(at: 0, period)
        self.run = parameters.run
        self.nextBeat = 0
        self.nextBeatPosition = Double(period.steadyTime)
      }
      guard parameters.running else {
        self.release(at: 0, period)
        return
      }
      if !parameters.playing { self.release(at: 0, period) }
      let framesPerBeat = 60 / parameters.tempo * self.sampleRate
      let end = Double(period.steadyTime + UInt64(period.frameCount))
      while self.nextBeatPosition.rounded() < end {
        let frame = max(0, Int(self.nextBeatPosition.rounded()) - Int(period.steadyTime))
        let beat = self.nextBeat
        let perChord = max(1, parameters.beatsPerChord)
        if beat % perChord == 0, parameters.chordCount > 0 {
          let chord = beat / perChord % parameters.chordCount
          if parameters.playing { self.play(chord, parameters, at: frame, period) }
          period.emit(PracticeRoom.event(.chord(index: chord), at: frame))
        }
        period.emit(PracticeRoom.event(.beat(index: beat), at: frame))
        self.nextBeat += 1
        self.nextBeatPosition += framesPerBeat
      }
    }

    private func play(
      _ chord: Int, _ parameters: Parameters, at frame: Int, _ period: ProcessorPeriod
    ) {
      self.release(at: frame, period)
      let notes = (
        parameters.notes[4 * chord], parameters.notes[4 * chord + 1],
        parameters.notes[4 * chord + 2], parameters.notes[4 * chord + 3]
      )
      self.sounding = notes
      Self.each(notes) { period.send(.noteOn(frame: frame, note: Int($0), velocity: 56)) }
    }

    private func release(at frame: Int, _ period: ProcessorPeriod) {
      Self.each(self.sounding) { period.send(.noteOff(frame: frame, note: Int($0))) }
      self.sounding = (0, 0, 0, 0)
    }

    /// Each note of a chord (0: none). No array: an array literal allocates, and this runs on
    /// the audio thread (realtime-check counts it).
    @inline(__always)
    private static func each(_ notes: (UInt8, UInt8, UInt8, UInt8), _ body: (UInt8) -> Void) {
      if notes.0 > 0 { body(notes.0) }
      if notes.1 > 0 { body(notes.1) }
      if notes.2 > 0 { body(notes.2) }
      if notes.3 > 0 { body(notes.3) }
    }
  }
}
