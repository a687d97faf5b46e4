import Foundation
import PatchbayPlugin

/// A tuner: pick a note, see its name and frequency — computed by another plugin's functions
/// (Theory's `note_frequency` and `note_name`), called through the host's stable pointers.
///
/// Actions: `setNote(_: 69)`, `setA4(hertz: 442.0)`.
@Feature
public struct Tuner {
  public static let id = "dev.patchbay.tuner"
  public static let summary = "A note's name and frequency, from the Theory plugin."
  /// Theory's functions, typed: the signatures the host checks come from these Swift types.
  @Import("dev.patchbay.theory-plugin", "note_frequency")
  static var noteFrequency: ((Int32, Double) -> Double)?
  @Import("dev.patchbay.theory-plugin", "note_name")
  static var noteName: ((Int32, UnsafeMutablePointer<CChar>?, Int) -> Int32)?

  public struct State: Codable, Equatable, Sendable {
    public var note = 69
    public var a4 = 440.0
    public var frequency = 0.0
    public var name = ""
    public init() {}
  }

  public enum Action: Codable, Equatable, Sendable {
    /// A MIDI note, 0 to 127
    case setNote(Int)
    /// The tuning of A4
    case setA4(hertz: Double)
  }

  public init() {}

  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .setNote(let note): state.note = min(max(note, 0), 127)
    case .setA4(let hertz): state.a4 = hertz
    }
    if let frequency = Self.noteFrequency {
      state.frequency = frequency(Int32(state.note), state.a4)
    }
    if let noteName = Self.noteName,
      let name = readOutString({ noteName(Int32(state.note), $0, $1) })
    {
      state.name = name
    }
    return .none
  }

  public static func render(_ state: State) -> String {
    "Tuner — \(state.name.isEmpty ? "note \(state.note)" : state.name): "
      + "\((state.frequency * 100).rounded() / 100) Hz (A4 = \(state.a4) Hz)"
  }
}

/// How far `frequency` is from `reference`, in cents (a hundredth of a semitone): a function
/// the Tuner plugin exports for other plugins and `patchbay call Tuner cents 445 440`.
@Export("cents", summary: "Cents from a reference")
public func tunerCents(_ frequency: Double, _ reference: Double) -> Double {
  1_200 * log2(frequency / reference)
}

#plugin(
  id: "dev.patchbay.tuner-plugin", name: "Tuner", version: "1.0.0", features: [Tuner.self],
  functions: [tunerCents])
