/// A problem in a host config: the file, the line, the key path, and what is expected.
///
/// `host-config/app.toml:14: feature[1].parent: 'hom' is not a feature key. Did you mean 'home'?`
public struct ConfigError: Error, Equatable, CustomStringConvertible {
  public let file: String
  public let line: Int?
  public let keyPath: String
  public let reason: String

  public init(file: String, line: Int?, keyPath: String, _ reason: String) {
    self.file = file
    self.line = line
    self.keyPath = keyPath
    self.reason = reason
  }

  public var description: String {
    let location = self.line.map { "\(self.file):\($0)" } ?? self.file
    return self.keyPath.isEmpty
      ? "\(location): \(self.reason)" : "\(location): \(self.keyPath): \(self.reason)"
  }
}

/// All the problems of one config, reported together.
public struct ConfigErrors: Error, CustomStringConvertible {
  public let errors: [ConfigError]
  public var description: String { self.errors.map(\.description).joined(separator: "\n") }
}

/// " Did you mean 'home'?" when a known word is within two edits of `word`.
func suggestion(for word: String, among candidates: [String]) -> String {
  let best = candidates.map { ($0, editDistance(word, $0)) }.min { $0.1 < $1.1 }
  guard let best, best.1 <= 2 else { return "" }
  return " Did you mean '\(best.0)'?"
}

/// Levenshtein distance.
func editDistance(_ a: String, _ b: String) -> Int {
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
