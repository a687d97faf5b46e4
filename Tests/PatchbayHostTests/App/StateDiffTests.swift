import PatchbayEncoding
import PatchbayStateDiff
import Testing

@testable import PatchbayHost

/// `--print-changes` diffs, from snapshot bytes: one line per changed value, by path.
@Suite struct StateDiffTests {
  func diff(_ before: WireValue?, _ after: WireValue) -> String {
    StateDiff.lines(before: before?.bytes, after: after.bytes)
  }

  @Test func equalStatesHaveNoDiff() {
    let state = WireValue.record(fields: ("count", 1), ("name", "a"))
    #expect(self.diff(state, state) == "")
  }

  @Test func changedFieldsByPath() {
    #expect(
      self.diff(
        .record(fields: ("count", 1), ("inner", .record(fields: ("on", false))), ("same", "s")),
        .record(fields: ("count", 2), ("inner", .record(fields: ("on", true))), ("same", "s")))
        == "/count: 1 → 2\n/inner/on: false → true")
  }

  @Test func addedAndRemovedFieldsAndItems() {
    #expect(
      self.diff(
        .record(fields: ("old", 1), ("items", .list([1, 2, 3]))),
        .record(fields: ("items", .list([1, 5])), ("new", "n")))
        == "/items/1: 2 → 5\n/items/2: 3 → (none)\n/new: (none) → \"n\"\n/old: 1 → (none)")
  }

  @Test func anotherCaseOrTypeIsOneChange() {
    #expect(
      self.diff(
        .record(fields: ("mode", .action("playing", ("bpm", 120))), ("x", 1)),
        .record(fields: ("mode", .action("stopped")), ("x", "one")))
        == "/mode: {\"playing\":{\"bpm\":120}} → {\"stopped\":{}}\n/x: 1 → \"one\"")
  }

  @Test func theSameCaseIsComparedFieldByField() {
    #expect(
      self.diff(
        .action("playing", ("bpm", 120), ("bar", 1)), .action("playing", ("bpm", 120), ("bar", 2)))
        == "/bar: 1 → 2")
  }

  @Test func aNewInstanceShowsItsWholeState() {
    #expect(self.diff(nil, .record(fields: ("count", 0))) == "/: (none) → {\"count\":0}")
  }

  @Test func manyChangesAreCutWithACount() {
    let before = WireValue.list((0..<100).map { .int($0) })
    let after = WireValue.list((0..<100).map { .int($0 + 1) })
    let lines = self.diff(before, after).split(separator: "\n")
    #expect(lines.count == StateDiff.maximumLines + 1)
    #expect(lines.last == "… and 60 more changed value(s)")
  }

  @Test func longValuesAreCut() {
    let line = self.diff(
      .record(fields: ("s", "")),
      .record(fields: ("s", .string(String(repeating: "y", count: 500)))))
    #expect(line.count < 150)
    #expect(line.hasSuffix("…"))
  }

  @Test func malformedBytesSaySoInsteadOfCrashing() {
    let good = WireValue.record(fields: ("count", 1)).bytes
    var bad = good
    bad[1] = 9  // nine fields, bytes for one
    #expect(StateDiff.lines(before: good, after: bad).contains("not a value"))
    #expect(StateDiff.lines(before: good, after: Array(good.dropLast(3))).contains("not a value"))
  }
}
