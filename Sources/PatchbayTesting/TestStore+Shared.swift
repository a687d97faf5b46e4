import Patchbay

extension TestStore {
  /// How `expected` differs from `actual`, or nil when they match. A shared value (`@Shared`)
  /// in `expected` reads as the test asserted it, and in `actual` as it is now.
  func difference(expected: State, actual: State) -> String? {
    let tracker = self.sharedChanges
    let matches = SharedChangeTracker.$asserting.withValue(tracker) { expected == actual }
    guard !matches else { return nil }
    guard tracker.hasChanges else {
      return diff(expected, actual, format: .proportional) ?? "\(expected)\n  ≠\n\(actual)"
    }
    // One dump each: the same shared box reads differently in the two states.
    let expectedDump = SharedChangeTracker.$asserting.withValue(tracker) {
      String(customDumping: expected)
    }
    return lineDifference(expectedDump, String(customDumping: actual))
  }
}

/// `old` and `new` line by line, as custom-dump shows a difference: lines both have, and the
/// old lines (−) and new ones (+) between them, by their longest common subsequence.
func lineDifference(_ old: String, _ new: String) -> String {
  let old = old.split(separator: "\n", omittingEmptySubsequences: false)
  let new = new.split(separator: "\n", omittingEmptySubsequences: false)
  // common[i][j]: the length of the longest common subsequence of old[i...] and new[j...].
  var common = [[Int]](repeating: [Int](repeating: 0, count: new.count + 1), count: old.count + 1)
  for i in stride(from: old.count - 1, through: 0, by: -1) {
    for j in stride(from: new.count - 1, through: 0, by: -1) {
      common[i][j] =
        old[i] == new[j] ? common[i + 1][j + 1] + 1 : max(common[i + 1][j], common[i][j + 1])
    }
  }
  var (i, j) = (0, 0)
  var lines: [String] = []
  while i < old.count || j < new.count {
    if i < old.count, j < new.count, old[i] == new[j] {
      lines.append("  \(old[i])")
      (i, j) = (i + 1, j + 1)
    } else if i < old.count, j == new.count || common[i + 1][j] >= common[i][j + 1] {
      lines.append("− \(old[i])")
      i += 1
    } else {
      lines.append("+ \(new[j])")
      j += 1
    }
  }
  return lines.joined(separator: "\n")
}
