/// A chord as a symbol names it (`Am`, `F#`, `Bb7`, `Cmaj7`, `Bdim`): a root pitch class and a
/// quality, with the notes the Practice screen plays and the fretboard marks.
///
/// ```swift
/// Chord("Am")?.notes          // [57, 60, 64]: A3, C4, E4
/// Chord.progression("Am F C G")   // .success([Am, F, C, G])
/// Chord.fourChords(inKey: 2)  // D, A, Bm, G: I–V–vi–IV in D major
/// ```
public struct Chord: Codable, Equatable, Sendable, CustomStringConvertible {
  public enum Quality: String, Codable, Sendable, CaseIterable {
    case major, minor, diminished, augmented, dominant7, major7, minor7

    /// Semitones above the root.
    public var intervals: [Int] {
      switch self {
      case .major: [0, 4, 7]
      case .minor: [0, 3, 7]
      case .diminished: [0, 3, 6]
      case .augmented: [0, 4, 8]
      case .dominant7: [0, 4, 7, 10]
      case .major7: [0, 4, 7, 11]
      case .minor7: [0, 3, 7, 10]
      }
    }

    /// What follows the root in a symbol: `m` in `Am`.
    public var suffix: String {
      switch self {
      case .major: ""
      case .minor: "m"
      case .diminished: "dim"
      case .augmented: "aug"
      case .dominant7: "7"
      case .major7: "maj7"
      case .minor7: "m7"
      }
    }
  }

  /// 0 (C) to 11 (B).
  public var root: Int
  public var quality: Quality

  public init(root: Int, _ quality: Quality) {
    self.root = ((root % 12) + 12) % 12
    self.quality = quality
  }

  /// The names of the twelve pitch classes, as a chord symbol spells them.
  public static let pitchNames = ["C", "C#", "D", "Eb", "E", "F", "F#", "G", "Ab", "A", "Bb", "B"]

  /// Parses a symbol: a letter A–G, then `#` or `b`, then a quality (`m`, `dim`, `aug`, `7`,
  /// `maj7`, `m7`, or none for major).
  public init?(_ symbol: String) {
    var rest = Substring(symbol)
    guard let letter = rest.first, let natural = "C D EF G A B".firstIndex(of: letter) else {
      return nil
    }
    var root = "C D EF G A B".distance(from: "C D EF G A B".startIndex, to: natural)
    rest = rest.dropFirst()
    if rest.first == "#" || rest.first == "♯" {
      root += 1
      rest = rest.dropFirst()
    } else if rest.first == "b" || rest.first == "♭" {
      root -= 1
      rest = rest.dropFirst()
    }
    guard let quality = Quality.allCases.first(where: { $0.suffix == rest }) else { return nil }
    self.init(root: root, quality)
  }

  public var symbol: String { Self.pitchNames[self.root] + self.quality.suffix }
  public var description: String { self.symbol }

  /// The notes played, root in the octave from G3 up (55–66), so every chord sits in one
  /// range of the keyboard.
  public var notes: [Int] {
    let base = 55 + (self.root - 7 + 12) % 12
    return self.quality.intervals.map { base + $0 }
  }

  public var pitchClasses: Set<Int> { Set(self.quality.intervals.map { (self.root + $0) % 12 }) }

  /// I–V–vi–IV in the major key on `key` (0 = C).
  public static func fourChords(inKey key: Int) -> [Chord] {
    [
      Chord(root: key, .major), Chord(root: key + 7, .major), Chord(root: key + 9, .minor),
      Chord(root: key + 5, .major),
    ]
  }

  /// A progression as typed: symbols apart by spaces, commas or bars, 1 to 16 of them.
  public static func progression(_ text: String) -> Result<[Chord], ProgressionError> {
    let symbols = text.split(whereSeparator: { " ,|\t".contains($0) }).map(String.init)
    guard (1...16).contains(symbols.count) else { return .failure(.count(symbols.count)) }
    var chords: [Chord] = []
    for symbol in symbols {
      guard let chord = Chord(symbol) else { return .failure(.symbol(symbol)) }
      chords.append(chord)
    }
    return .success(chords)
  }

  /// Why typed text is not a progression.
  public enum ProgressionError: Error, Equatable, CustomStringConvertible {
    case count(Int)
    case symbol(String)

    public var description: String {
      switch self {
      case .count(let count):
        "a progression has 1 to 16 chords, not \(count): type them apart, as Am F C G"
      case .symbol(let symbol):
        "'\(symbol)' is not a chord: write a root (C, F#, Bb) and m, dim, aug, 7, maj7 or m7"
      }
    }
  }
}
