import PatchbayPlugin

/// The MIDI Monitor: the last 20 messages, newest first, with note names from the Theory
/// plugin's `note_name` (through "patchbay.functions/1"), and a piano-roll strip of the keys
/// held now. Pause to read, clear to start again.
///
/// Actions: `pause`, `resume`, `togglePause`, `clear`, and `midi(…)`, which the host sends for
/// every message that arrives.
@Feature
public struct MIDIMonitor {
  public static let id = "dev.patchbay.midi-monitor"
  public static let name = "MIDI Monitor"
  public static let summary = "The last 20 MIDI messages, named, and the keys held."
  public static let midiChannels: UInt16 = 0xFFFF
  /// Theory's `note_name`, typed (`int32(int32, out_string)`).
  @Import("dev.patchbay.theory-plugin", "note_name")
  static var noteName: ((Int32, UnsafeMutablePointer<CChar>?, Int) -> Int32)?
  static let capacity = 20

  public struct State: Codable, Equatable, Sendable {
    /// Newest first, at most 20.
    public var events: [Event] = []
    public var paused = false
    /// The notes held down now, low to high (kept while paused: the strip shows the keys).
    public var held: [Int] = []
    /// Every message heard since the start, listed or not.
    public var heard = 0

    public init() {}
  }

  public struct Event: Codable, Equatable, Sendable {
    public var text: String
    public init(_ text: String) { self.text = text }
  }

  public enum Action: Codable, Equatable, Sendable {
    /// Stops listing new messages
    case pause
    /// Lists new messages again
    case resume
    /// Pauses or resumes
    case togglePause
    /// Empties the list
    case clear
    /// A message that arrived
    @SentBy(.host) case midi(MIDIMessage)
  }

  public init() {}

  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .pause: state.paused = true
    case .resume: state.paused = false
    case .togglePause: state.paused.toggle()
    case .clear: state.events = []
    case .midi(let message):
      state.heard += 1
      switch message {
      case .noteOn(_, let note, let velocity) where velocity > 0:
        if !state.held.contains(note) { state.held = (state.held + [note]).sorted() }
      case .noteOn(_, let note, _), .noteOff(_, let note, _):
        state.held.removeAll { $0 == note }
      default: break
      }
      guard !state.paused else { return .none }
      state.events.insert(Event(self.describe(message)), at: 0)
      if state.events.count > Self.capacity { state.events.removeLast() }
    }
    return .none
  }

  /// `ch 1  note on   C4 (60)  vel 100`.
  func describe(_ message: MIDIMessage) -> String {
    func pad(_ text: String, _ width: Int) -> String {
      text.padding(toLength: max(width, text.count), withPad: " ", startingAt: 0)
    }
    switch message {
    case .noteOn(let channel, let note, let velocity):
      return "ch \(pad(String(channel), 2)) note on   \(pad(self.name(note), 10)) vel \(velocity)"
    case .noteOff(let channel, let note, _):
      return "ch \(pad(String(channel), 2)) note off  \(self.name(note))"
    case .controlChange(let channel, let controller, let value):
      return "ch \(pad(String(channel), 2)) control   \(pad("#\(controller)", 10)) = \(value)"
    case .programChange(let channel, let program):
      return "ch \(pad(String(channel), 2)) program   \(program)"
    case .pitchBend(let channel, let value):
      return "ch \(pad(String(channel), 2)) bend      \(value)"
    case .channelPressure(let channel, let pressure):
      return "ch \(pad(String(channel), 2)) pressure  \(pressure)"
    case .polyPressure(let channel, let note, let pressure):
      return "ch \(pad(String(channel), 2)) aftertch  \(pad(self.name(note), 10)) \(pressure)"
    case .start: return "start"
    case .stop: return "stop"
    case .continue: return "continue"
    }
  }

  /// `C4 (60)`, named by Theory; `note 60` when Theory is not loaded.
  func name(_ note: Int) -> String {
    guard let noteName = Self.noteName,
      let name = readOutString({ noteName(Int32(note), $0, $1) })
    else { return "note \(note)" }
    return name + " (\(note))"
  }

  public static func render(_ state: State) -> String {
    var lines = [
      "MIDI Monitor — \(state.heard) heard"
        + (state.paused ? ", paused (new messages are not listed)" : ""),
      "",
    ]
    lines += PianoRoll.render(held: state.held)
    lines.append("")
    lines += state.events.isEmpty ? ["(play something)"] : state.events.map(\.text)
    return lines.joined(separator: "\n")
  }
}

#plugin(
  id: "dev.patchbay.midi-monitor-plugin", name: "MIDIMonitor", version: "1.0.0",
  features: [MIDIMonitor.self])
