import PatchbayPlugin

/// The Chord Trainer: it asks for a major or minor triad ("E♭ minor, any inversion"), listens
/// to MIDI — or to the computer keyboard's piano keys — and grades the chord played, named by
/// the Theory plugin's `chord_name` (through "patchbay.functions/1"). After ten chords it
/// pushes its Results screen with the score (navigation as state) and tells its parent, the
/// Studio, with a delegate action.
///
/// Actions: `midi(…)`, `key(_: 0)` (a computer key: 0 is C of the octave, 12 the C above),
/// `octaveUp`, `octaveDown`, `clearKeys`, `skip`, `ask(root: 3, minor: true)`, `restart`.
@Feature
public struct ChordTrainer {
  public static let id = "dev.patchbay.chord-trainer"
  public static let name = "Chord Trainer"
  public static let summary = "Asks for triads, grades what is played (named by Theory)."
  public static let midiChannels: UInt16 = 0xFFFF
  /// Theory's `chord_name`, typed (`int32(buffer, out_string)`).
  @Import("dev.patchbay.theory-plugin", "chord_name")
  static var chordName: ((UnsafePointer<UInt8>?, Int, UnsafeMutablePointer<CChar>?, Int) -> Int32)?
  /// Chords a round asks for.
  public static let roundLength = 10

  public struct State: Codable, Equatable, Sendable {
    public var target = Triad(root: 0, minor: false)
    /// Chords asked this round (answered or skipped), and those answered right.
    public var asked = 0
    public var score = 0
    /// Wrong chords played this round.
    public var misses = 0
    /// MIDI notes held down, and the computer keys pressed (MIDI notes too).
    public var held: [Int] = []
    public var typed: [Int] = []
    /// The held chord was graded: the next is graded once every key is up.
    public var graded = false
    /// The computer keys' octave: 4 puts `a` on C4 (60).
    public var octave = 4
    public var verdict: String?
    /// Where the next chord comes from (a generator in the state: runs replay). The bits of a
    /// `UInt64`, kept as an `Int`: the value encoding's ints are 64-bit signed.
    public var seed = 0x5EED

    public init() {}
  }

  /// A major or minor triad, by its root's pitch class.
  public struct Triad: Codable, Equatable, Sendable, CustomStringConvertible {
    public var root: Int
    public var minor: Bool

    public init(root: Int, minor: Bool) {
      self.root = ((root % 12) + 12) % 12
      self.minor = minor
    }

    static let names = ["C", "D♭", "D", "E♭", "E", "F", "F♯", "G", "A♭", "A", "B♭", "B"]
    public var description: String { Self.names[self.root] + (self.minor ? " minor" : " major") }
  }

  public enum Action: Codable, Equatable, Sendable {
    /// A piano key of the computer keyboard: 0 (C) to 12
    case key(Int)
    /// The computer keys an octave higher
    case octaveUp
    /// The computer keys an octave lower
    case octaveDown
    /// Lets go of the computer keys pressed
    case clearKeys
    /// Asks for another chord (counts as asked)
    case skip
    /// Starts a new round of ten
    case restart
    /// Asks for this chord next
    case ask(root: Int, minor: Bool)
    /// A message from a keyboard
    @SentBy(.host) case midi(MIDIMessage)
    /// What it tells its parent
    @SentBy(.effect) case delegate(Delegate)
  }

  public enum Delegate: Codable, Equatable, Sendable, ActionCaseField {
    case finished(score: Int, outOf: Int)
  }

  public init() {}

  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .key(let offset):
      let note = 12 * (state.octave + 1) + min(max(offset, 0), 12)
      if let index = state.typed.firstIndex(of: note) {
        state.typed.remove(at: index)
      } else {
        state.typed.append(note)
      }
      guard Set(state.typed.map { $0 % 12 }).count >= 3 else { return .none }
      let notes = state.typed
      state.typed = []
      return self.grade(notes, &state)
    case .octaveUp: state.octave = min(state.octave + 1, 8)
    case .octaveDown: state.octave = max(state.octave - 1, 0)
    case .clearKeys: state.typed = []
    case .skip:
      state.asked += 1
      state.verdict = "Skipped \(state.target)"
      return self.next(&state)
    case .restart:
      (state.asked, state.score, state.misses, state.verdict) = (0, 0, 0, nil)
      return self.next(&state)
    case .ask(let root, let minor):
      state.target = Triad(root: root, minor: minor)
    case .midi(.noteOn(_, let note, let velocity)) where velocity > 0:
      if !state.held.contains(note) { state.held.append(note) }
      guard !state.graded, Set(state.held.map { $0 % 12 }).count >= 3 else { return .none }
      state.graded = true
      return self.grade(state.held, &state)
    case .midi(.noteOn(_, let note, _)), .midi(.noteOff(_, let note, _)):
      state.held.removeAll { $0 == note }
      if state.held.isEmpty { state.graded = false }
    case .midi, .delegate:
      break
    }
    return .none
  }

  /// Names `notes` through Theory and grades them against the target: right, the next chord
  /// (and at the end of a round, Results and the delegate); wrong, try again.
  func grade(_ notes: [Int], _ state: inout State) -> Effect<Action> {
    guard let name = self.chordName(notes) else {
      state.verdict = "Cannot grade: the Theory plugin's chord_name is not loaded."
      return .none
    }
    guard !name.isEmpty else {  // it failed (a wasm Theory out of fuel): the host said why
      state.verdict = "Cannot grade: the Theory plugin's chord_name answered nothing."
      return .none
    }
    guard let played = Self.triad(named: name), played == state.target else {
      state.misses += 1
      state.verdict = "✗ \(name) — not \(state.target); try again"
      return .none
    }
    state.score += 1
    state.asked += 1
    state.verdict = "✓ \(name)"
    return self.next(&state)
  }

  /// The next target; after the round's last, Results and the delegate.
  func next(_ state: inout State) -> Effect<Action> {
    state.target = Self.draw(&state.seed, after: state.target)
    guard state.asked >= Self.roundLength else { return .none }
    let (score, outOf) = (state.score, state.asked)
    (state.asked, state.score, state.misses) = (0, 0, 0)
    return .merge(
      .navigate(.push("trainer-results", state: TrainerResults.State(score: score, outOf: outOf))),
      .send(.delegate(.finished(score: score, outOf: outOf))))
  }

  /// The next chord to ask for, from `seed` (a linear congruential generator kept in the
  /// state, so a run replays): one of the 24 triads, never `previous` again.
  public static func draw(_ seed: inout Int, after previous: Triad) -> Triad {
    var target = previous
    var bits = UInt64(bitPattern: Int64(seed))
    while target == previous {
      bits = bits &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      let pick = Int((bits >> 33) % 24)
      target = Triad(root: pick / 2, minor: pick % 2 == 1)
    }
    seed = Int(Int64(bitPattern: bits))
    return target
  }

  /// Theory's name for `notes` (`D# minor/F#`); nil without the function.
  func chordName(_ notes: [Int]) -> String? {
    guard let chordName = Self.chordName else { return nil }
    let bytes = notes.map { UInt8(clamping: $0) }
    return bytes.withUnsafeBufferPointer { notes in
      readOutString { chordName(notes.baseAddress, notes.count, $0, $1) }
    }
  }

  /// The triad a Theory name names: `D# minor/F#` is E♭ minor; nil for anything but a major
  /// or minor triad.
  static func triad(named name: String) -> Triad? {
    let words = (name.split(separator: "/").first ?? "").split(separator: " ")
    guard words.count == 2, let root = Self.pitchClass(String(words[0])) else { return nil }
    switch words[1] {
    case "major": return Triad(root: root, minor: false)
    case "minor": return Triad(root: root, minor: true)
    default: return nil
    }
  }

  static func pitchClass(_ name: String) -> Int? {
    let naturals: [Character: Int] = ["C": 0, "D": 2, "E": 4, "F": 5, "G": 7, "A": 9, "B": 11]
    guard let letter = name.first, let natural = naturals[letter] else { return nil }
    switch name.dropFirst() {
    case "": return natural
    case "#", "♯": return (natural + 1) % 12
    case "b", "♭": return (natural + 11) % 12
    default: return nil
    }
  }

  /// The computer keys, as DAWs lay them out: white keys on `a s d f g h j k`, black keys on
  /// `w e t y u` above them.
  public static let keyboard = "a w s e d f t g y h u j k"

  public static func render(_ state: State) -> String {
    var lines = [
      "Chord Trainer — chord \(min(state.asked + 1, Self.roundLength)) of \(Self.roundLength), "
        + "score \(state.score), \(state.misses) wrong",
      "",
      "Play: \(state.target), any inversion",
      "",
    ]
    if let verdict = state.verdict { lines.append(verdict) }
    let keys =
      state.typed.isEmpty
      ? "" : " — keys down: \(state.typed.map(String.init).joined(separator: " "))"
    lines.append("Computer keys (\(Self.keyboard)) play from C\(state.octave)\(keys)")
    return lines.joined(separator: "\n")
  }
}

/// The Trainer's Results screen, pushed with the score: `again` goes back for another round,
/// `home` to the Studio.
@Feature
public struct TrainerResults {
  public static let id = "dev.patchbay.trainer-results"
  public static let name = "Trainer results"
  public static let summary = "A round's score."
  public static var initialState: State { State(score: 0, outOf: 0) }

  public struct State: Codable, Equatable, Sendable {
    public var score: Int
    public var outOf: Int
    public init(score: Int, outOf: Int) { (self.score, self.outOf) = (score, outOf) }
  }

  public enum Action: Codable, Equatable, Sendable {
    /// Back to the trainer
    case again
    /// Back to the Studio
    case home
  }

  public init() {}

  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .again: .navigate(.pop)
    case .home: .navigate(.popToRoot)
    }
  }

  public static func render(_ state: State) -> String {
    let stars =
      String(repeating: "★", count: state.score)
      + String(repeating: "☆", count: max(0, state.outOf - state.score))
    return "Results — \(state.score) of \(state.outOf) chords\n\n\(stars)"
  }
}

#plugin(
  id: "dev.patchbay.chord-trainer-plugin", name: "ChordTrainer", version: "1.0.0",
  features: [ChordTrainer.self, TrainerResults.self])
