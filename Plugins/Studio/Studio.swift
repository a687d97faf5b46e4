import PatchbayPlugin

/// The practice studio's home screen: a menu of its screens, the tempo, the key and the MIDI
/// input, and the practice kept across runs — minutes played with the Metronome running, and
/// the Chord Trainer's best score.
///
/// It imports no other feature. It reads what others publish ("patchbay.shared/1": the
/// Metronome's `transport`, the Practice screen's `practice`, the host's `host.midi`), hears
/// its Metronome's beats (the config's `observe = ["metronome"]`), and the Trainer's delegate
/// action when a round ends.
///
/// Actions: `up`, `down`, `select(index: 1)`, `open`, `go(_: 1)` (select and open).
@Feature
public struct Studio {
  public static let id = "dev.patchbay.studio"
  public static let summary = "The practice studio: its screens, tempo, key and progress."
  public static let subscriptions = [
    SharedSubscription("transport", as: "transport"),
    SharedSubscription("practice", as: "practice"),
    SharedSubscription("host.midi", as: "midiInput"),
    SharedSubscription("host.date", as: "date"),
  ]

  public struct State: Codable, Equatable, Sendable {
    public var entries = [
      Entry(node: "practice", title: "Practice — chords through the Synth, on a fretboard"),
      Entry(node: "trainer", title: "Chord Trainer — play the chord it asks for"),
      Entry(node: "monitor", title: "MIDI Monitor — what your keyboard sends"),
    ]
    public var selected = 0
    public var tempo = 120.0
    public var running = false
    public var key = "C major"
    public var progression = "C G Am F"
    public var midiInput = "none"
    /// Seconds played with the Metronome running, over every run, and on `today`.
    public var secondsPlayed = 0.0
    public var secondsToday = 0.0
    /// The day the host says it is (`2026-11-26`); nil offline (a render has no calendar).
    public var today: String?
    public var bestScore = 0
    public var lastScore: String?

    public init() {}
  }

  public struct Entry: Codable, Equatable, Sendable {
    public var node: String
    public var title: String
  }

  /// What the Metronome publishes (fields it adds later are skipped).
  public struct Transport: Codable, Equatable, Sendable {
    public var tempo: Double
    public var running: Bool
    public init(tempo: Double, running: Bool) { (self.tempo, self.running) = (tempo, running) }
  }

  /// What the Practice screen publishes.
  public struct PracticeSummary: Codable, Equatable, Sendable {
    public var key: String
    public var progression: String
    public init(key: String, progression: String) {
      (self.key, self.progression) = (key, progression)
    }
  }

  /// What the host publishes as the date, when it runs live.
  public struct HostDate: Codable, Equatable, Sendable {
    public var day: String
    public init(day: String) { self.day = day }
  }

  /// What the host publishes about its MIDI input.
  public struct MIDIInput: Codable, Equatable, Sendable {
    public var input: String
    public init(input: String) { self.input = input }
  }

  /// The Trainer's delegate action, as it sends it to its parent.
  public enum TrainerMessage: Codable, Equatable, Sendable, ActionCaseField {
    case delegate(TrainerDelegate)
  }

  public enum TrainerDelegate: Codable, Equatable, Sendable {
    case finished(score: Int, outOf: Int)
  }

  public enum Action: Codable, Equatable, Sendable {
    /// Selects the screen above
    case up
    /// Selects the screen below
    case down
    /// Opens the selected screen
    case open
    /// Selects a screen
    case select(index: Int)
    /// Selects and opens a screen: 0 is the first
    case go(Int)
    /// The Metronome's
    @SentBy(.host) case transport(Transport)
    /// The Practice screen's
    @SentBy(.host) case practice(PracticeSummary)
    /// The host's MIDI input
    @SentBy(.host) case midiInput(MIDIInput)
    /// Today's date
    @SentBy(.host) case date(HostDate)
    /// Its Metronome's actions
    @SentBy(.host) case metronome(ActionName)
    /// The Trainer's delegate
    @SentBy(.host) case trainer(TrainerMessage)
  }

  public init() {}

  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .up: state.selected = max(0, state.selected - 1)
    case .down: state.selected = min(state.entries.count - 1, state.selected + 1)
    case .select(let index):
      if state.entries.indices.contains(index) { state.selected = index }
    case .open:
      return .navigate(.push(state.entries[state.selected].node))
    case .go(let index):
      guard state.entries.indices.contains(index) else { return .none }
      state.selected = index
      return .navigate(.push(state.entries[index].node))
    case .transport(let transport):
      state.tempo = transport.tempo
      state.running = transport.running
    case .practice(let summary):
      state.key = summary.key
      state.progression = summary.progression
    case .midiInput(let input):
      state.midiInput = input.input
    case .date(let date):
      if state.today != date.day { state.secondsToday = 0 }
      state.today = date.day
    case .metronome(let action):
      if action.name == "beat" {
        state.secondsPlayed += 60 / state.tempo
        state.secondsToday += 60 / state.tempo
      }
    case .trainer(.delegate(.finished(let score, let outOf))):
      state.bestScore = max(state.bestScore, score)
      state.lastScore = "\(score) of \(outOf)"
    }
    return .none
  }

  public static func render(_ state: State) -> String {
    // Beats add up in steps of 60 / tempo: a hair under a whole minute is the minute.
    func time(_ seconds: Double) -> String {
      let whole = Int(seconds + 1e-9)
      return whole >= 3_600
        ? "\(whole / 3_600) h \(whole % 3_600 / 60) min" : "\(whole / 60) min \(whole % 60) s"
    }
    var lines = [
      "Patchbay Studio — \(Int(state.tempo)) BPM " + (state.running ? "▶" : "■")
        + " · \(state.key) (\(state.progression)) · MIDI in: \(state.midiInput)",
      (state.today == nil ? "" : "Today \(time(state.secondsToday)) · ")
        + "Practised \(time(state.secondsPlayed)) · best trainer score \(state.bestScore)"
        + (state.lastScore.map { " (last \($0))" } ?? ""),
      "",
    ]
    for (index, entry) in state.entries.enumerated() {
      lines.append((index == state.selected ? "▸ " : "  ") + "\(index + 1) " + entry.title)
    }
    return lines.joined(separator: "\n")
  }
}

#plugin(id: "dev.patchbay.studio-plugin", name: "Studio", version: "1.0.0", features: [Studio.self])
