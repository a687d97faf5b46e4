/// Delta debugging (Zeller's ddmin, by complements): the fewest items of a failing list that
/// still fail. `patchbay validate` shrinks a fuzzing failure's actions with it, and
/// `patchbay repro` a run's.
///
/// ```swift
/// // fails when 3 and 17 are both in: from 0…99, two runs of halves, then smaller pieces
/// let shrunk = DeltaDebugging.minimize(Array(0..<100)) { [3, 17].allSatisfy($0.contains) }
/// shrunk.kept   // [3, 17]
/// shrunk.runs   // how many candidates were tried
/// ```
///
/// Each round leaves out one piece of the list in turn; a candidate that still fails is kept,
/// and the pieces grow coarser again; when none fails, the pieces are halved, down to single
/// items. The result fails, and leaving out any one of its items does not (unless `budget`
/// candidates ran out first: then it is the smallest found).
package enum DeltaDebugging {
  package static func minimize<Item>(
    _ items: [Item], budget: Int = .max, fails: ([Item]) -> Bool
  ) -> (kept: [Item], runs: Int) {
    Self.minimize(items, budget: budget, batch: 1) { candidates in
      candidates.firstIndex(where: fails)
    }
  }

  /// The same, trying `batch` candidates at a time: `firstFailing` tries them (at once, in
  /// child processes) and says which is the first that fails, in order. The result is the
  /// one-at-a-time result; runs counts every candidate tried, so a batch that found an early
  /// one counts the later ones too.
  ///
  /// ```swift
  /// DeltaDebugging.minimize(steps, batch: 2) { candidates in
  ///   let failed = runInParallel(candidates)   // [false, true]
  ///   return failed.firstIndex(of: true)       // 1
  /// }
  /// ```
  package static func minimize<Item>(
    _ items: [Item], budget: Int = .max, batch: Int,
    firstFailing: ([[Item]]) -> Int?
  ) -> (kept: [Item], runs: Int) {
    var kept = items
    var runs = 0
    var chunks = 2
    while kept.count >= 2, runs < budget {
      let size = max(1, kept.count / chunks)
      let candidates = stride(from: 0, to: kept.count, by: size).map { start in
        var candidate = kept
        candidate.removeSubrange(start..<min(start + size, kept.count))
        return candidate
      }.filter { !$0.isEmpty }
      var found: [Item]?
      var next = 0
      while found == nil, next < candidates.count, runs < budget {
        let count = min(batch, candidates.count - next, budget - runs)
        let tried = Array(candidates[next..<next + count])
        runs += tried.count
        next += tried.count
        if let index = firstFailing(tried) { found = tried[index] }
      }
      if let found {
        kept = found
        chunks = max(chunks - 1, 2)
      } else {
        if size == 1 { break }
        chunks = min(chunks * 2, kept.count)
      }
    }
    return (kept, runs)
  }
}
