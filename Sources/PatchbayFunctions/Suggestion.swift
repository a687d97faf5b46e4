/// " Did you mean 'home'?" when a known word is within two edits of `word`: what every error
/// of the host that names an unknown word ends with (a node, a feature, a type, a command).
///
/// ```swift
/// suggestion(for: "hme", among: ["home", "echo"])   // " Did you mean 'home'?"
/// suggestion(for: "zzz", among: ["home", "echo"])   // ""
/// ```
package func suggestion(for word: String, among candidates: [String]) -> String {
  let best = candidates.map { ($0, editDistance(word, $0)) }.min { $0.1 < $1.1 }
  guard let best, best.1 <= 2 else { return "" }
  return " Did you mean '\(best.0)'?"
}

/// Levenshtein distance.
package func editDistance(_ a: String, _ b: String) -> Int {
  let a = Array(a), b = Array(b)
  if a.isEmpty { return b.count }
  if b.isEmpty { return a.count }
  var previous = Array(0...b.count)
  for i in 1...a.count {
    var current = [i] + Array(repeating: 0, count: b.count)
    for j in 1...b.count {
      current[j] = min(
        previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
    }
    previous = current
  }
  return previous[b.count]
}
