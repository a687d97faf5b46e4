import Testing

@testable import PatchbayValidation

/// The shrinker `validate` and `repro` share: the fewest items that still fail, each needed.
@Suite struct DeltaDebuggingTests {
  /// Four particular items among 10,000 (a crash that needs four actions, at the end of a long
  /// run): found, and in far fewer runs than there are items.
  @Test func fourNeededItemsAmongTenThousandAreFound() {
    let needed = [17, 4_242, 9_001, 9_999]
    let shrunk = DeltaDebugging.minimize(Array(0..<10_000)) { candidate in
      needed.allSatisfy(Set(candidate).contains)
    }
    #expect(shrunk.kept == needed)
    #expect(shrunk.runs < 400, "\(shrunk.runs) runs")
  }

  /// What it returns fails, and leaving out any one item of it does not.
  @Test(arguments: [[3], [0, 1], [5, 6, 7], [0, 99]])
  func theResultIsOneMinimal(_ needed: [Int]) {
    let fails = { (candidate: [Int]) in needed.allSatisfy(candidate.contains) }
    let kept = DeltaDebugging.minimize(Array(0..<100), fails: fails).kept
    #expect(fails(kept))
    for index in kept.indices {
      var less = kept
      less.remove(at: index)
      #expect(!fails(less))
    }
  }

  /// Out of budget, it returns the smallest failing list found so far.
  @Test func aBudgetStopsItWithWhatItFound() {
    let shrunk = DeltaDebugging.minimize(Array(0..<1_000), budget: 3) { $0.contains(999) }
    #expect(shrunk.runs == 3)
    #expect(shrunk.kept.contains(999))
    #expect(shrunk.kept.count < 1_000)
  }

  /// Tried two at a time, it keeps what one at a time keeps: the first failing candidate of
  /// each batch, in order (a later one that also fails is not taken).
  @Test func batchesKeepWhatOneAtATimeKeeps() {
    let needed = Set([17, 4_242, 9_001, 9_999])
    let fails = { (candidate: [Int]) in needed.isSubset(of: candidate) }
    let single = DeltaDebugging.minimize(Array(0..<10_000), fails: fails)
    var batches: [Int] = []
    let paired = DeltaDebugging.minimize(Array(0..<10_000), batch: 2) { candidates in
      batches.append(candidates.count)
      return candidates.firstIndex(where: fails)
    }
    #expect(paired.kept == single.kept)
    #expect(paired.runs >= single.runs)
    #expect(batches.contains(2))
    #expect(batches.allSatisfy { $0 <= 2 })
  }
}
