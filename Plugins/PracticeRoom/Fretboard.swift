/// A guitar neck in standard tuning (E2 A2 D3 G3 B3 E4), frets 0–12, as text: the chord's root
/// `◆`, its other notes `●`, the high string on top as a player looks down at it.
///
/// ```text
///    0  1   2   3   4   5   6   7   8   9   10  11  12
///  e ●║───┼───┼─●─┼───┼───┼───┼─●─┼───┼───┼───┼───┼─●─┤
/// ```
enum Fretboard {
  static let strings: [(name: String, note: Int)] = [
    ("e", 64), ("B", 59), ("G", 55), ("D", 50), ("A", 45), ("E", 40),
  ]
  static let frets = 12

  static func render(_ chord: Chord) -> [String] {
    let classes = chord.pitchClasses
    func mark(_ note: Int) -> Character? {
      note % 12 == chord.root ? "◆" : classes.contains(note % 12) ? "●" : nil
    }
    // Each number over its fret's mark: the open string's at column 3, fret n's at 4n + 2.
    var header = Array(repeating: Character(" "), count: 5 + 4 * Self.frets)
    for fret in 0...Self.frets {
      let column = fret == 0 ? 3 : 4 * fret + 2
      for (offset, digit) in String(fret).enumerated() { header[column + offset] = digit }
    }
    var lines = [String(header)]
    for string in Self.strings {
      var line = " \(string.name) \(mark(string.note).map(String.init) ?? " ")║"
      for fret in 1...Self.frets {
        line += "─" + (mark(string.note + fret).map(String.init) ?? "─") + "─"
        line += fret == Self.frets ? "┤" : "┼"
      }
      lines.append(line)
    }
    return lines
  }
}
