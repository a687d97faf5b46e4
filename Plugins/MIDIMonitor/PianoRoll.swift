/// Four octaves of a keyboard, C2 to B5, as two lines of text: black keys above, white keys
/// below, a held key filled. Notes outside the range show as `◂` or `▸` at the ends.
///
/// ```text
///  ▕█▏▕█▏ ▕█▏▕█▏▕█▏ ▕▓▏▕█▏ …
///  ▕ ▏▕ ▏▕ ▏▕ ▏▕▓▏▕ ▏▕ ▏ …
/// ```
enum PianoRoll {
  static let low = 36
  static let high = 83

  static func render(held: [Int]) -> [String] {
    let isBlack: Set<Int> = [1, 3, 6, 8, 10]
    var black = "", white = ""
    for note in Self.low...Self.high {
      let down = held.contains(note)
      if isBlack.contains(note % 12) {
        black += down ? "▓" : "█"
      } else {
        // A white key's column; the black key after it (if any) sits between two columns.
        white += down ? "▓" : "▁"
        if !isBlack.contains((note + 1) % 12) { black += " " }
      }
    }
    let below = held.contains { $0 < Self.low } ? "◂" : " "
    let above = held.contains { $0 > Self.high } ? "▸" : " "
    return [" " + black, below + white + above]
  }
}
