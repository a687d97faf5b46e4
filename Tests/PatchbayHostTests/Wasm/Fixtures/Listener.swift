import PatchbayEmbedded

/// A feature in Embedded Swift that uses the services a native Swift feature declares: it hears
/// MIDI on channel 1, reads the Metronome's "transport", publishes "heard" (the notes it heard),
/// holds "tally" with every other holder, and calls Theory's `note_frequency`. Its module
/// imports exactly those services.
@Feature
struct Listener {
  static let id: StaticString = "dev.patchbay.listener"
  static let midiChannels: MIDIChannels = 0x0001
  static let subscriptions = [SharedSubscription("transport", as: "transport")]
  static let imports = [
    FunctionImport("dev.patchbay.theory-plugin", "note_frequency", "double(int32, double)")
  ]

  static func shared(_ state: State) -> [SharedValue] { [SharedValue("heard", state.notes)] }

  struct State {
    var messages: Int64 = 0
    var notes: Int64 = 0
    var lastNote: Int64 = -1
    var bend: Int64 = 0
    var tempo: Double = 0
    var frequency: Double = 0
    @Shared(.inMemory("tally")) var tally: Int64 = 0
  }

  enum Action {
    /// A MIDI message on channel 1
    @SentBy(.host)
    case midi(MIDIMessage)
    /// The Metronome's transport
    @SentBy(.host)
    case transport(Transport)
    /// Asks Theory for the note's frequency at A4 = 440 Hz
    case tune(note: Int32)
    /// Adds one to the shared tally
    case count
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .midi(let message):
      state.messages += 1
      switch message {
      case .noteOn(_, let note, _):
        state.notes += 1
        state.lastNote = Int64(note)
      case .pitchBend(_, let value): state.bend = Int64(value)
      default: break
      }
    case .transport(let transport): state.tempo = transport.tempo
    case .count: state.tally += 1
    case .tune(let note):
      guard let pointer = ImportedFunctions.current.pointer("note_frequency") else {
        state.frequency = -1
        break
      }
      let noteFrequency = unsafeBitCast(
        pointer, to: (@convention(c) (Int32, Double) -> Double).self)
      state.frequency = noteFrequency(note, 440)
    }
    return .none
  }

  static func render(_ state: State) -> String { "heard \(state.notes)" }
}

/// The Metronome's shared "transport", of which this reads the tempo.
struct Transport: WireValue {
  var tempo: Double = 0

  func write(to out: inout WireWriter) {
    out.record(1)
    out.field("tempo", tempo)
  }

  static func read(from input: inout WireReader) -> Transport? {
    guard let count = input.record() else { return nil }
    var transport = Transport()
    for _ in 0..<count {
      guard let label = input.label() else { return nil }
      if label == "tempo" {
        guard let tempo = input.value(Double.self) else { return nil }
        transport.tempo = tempo
      } else {
        guard input.skip() else { return nil }
      }
    }
    return transport
  }

  static var wireType: StaticString { "record" }
}

#plugin(
  id: "dev.patchbay.listener-plugin", name: "Listener", version: "1.0.0",
  features: [Listener.self])
