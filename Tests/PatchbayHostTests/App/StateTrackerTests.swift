import PatchbayEncoding
import PatchbayStateDiff
import Testing

/// `--print-changes` keeps each instance's last state: whole snapshots, or, from a plugin that
/// says which fields an action changed (`changed_fields`), those fields in place of theirs.
@Suite struct StateTrackerTests {
  func tracker(from state: WireValue) -> StateTracker<String> {
    let tracker = StateTracker<String>()
    tracker.diffLines = true
    tracker.track("huge", state: state.bytes)
    return tracker
  }

  @Test func changedFieldsAreDiffedAgainstTheFieldsLastSeen() {
    let tracker = self.tracker(from: .record(fields: ("count", 1), ("blob", "abc")))
    let noSnapshot: () -> [UInt8]? = {
      Issue.record("a snapshot was taken though the plugin said what changed")
      return nil
    }
    #expect(
      tracker.reduced(
        "huge", changed: { WireValue.record(fields: ("count", 2)).bytes }, after: noSnapshot)
        == "/count: 1 → 2")
    #expect(
      tracker.reduced(
        "huge", changed: { WireValue.record(fields: ("count", 3)).bytes }, after: noSnapshot)
        == "/count: 2 → 3")
    // Nothing changed: an empty record.
    #expect(
      tracker.reduced("huge", changed: { WireValue.record([]).bytes }, after: noSnapshot)
        == "")
  }

  /// A plugin that cannot say this time takes a snapshot, diffed against the fields kept.
  @Test func aSnapshotAfterChangedFieldsIsDiffedAgainstThemAll() {
    let tracker = self.tracker(from: .record(fields: ("count", 1), ("blob", "abc")))
    _ = tracker.reduced("huge", changed: { WireValue.record(fields: ("count", 2)).bytes }) { nil }
    let after = WireValue.record(fields: ("count", 2), ("blob", "abd")).bytes
    #expect(tracker.reduced("huge", changed: { nil }) { after } == "/blob: \"abc\" → \"abd\"")
    #expect(tracker.reduced("huge") { after } == "")
  }

  @Test func aFieldNotSeenBeforeIsAdded() {
    let tracker = self.tracker(from: .record(fields: ("count", 1)))
    #expect(
      tracker.reduced("huge", changed: { WireValue.record(fields: ("step", 5)).bytes }) { nil }
        == "/step: (none) → 5")
    let after = WireValue.record(fields: ("count", 1), ("step", 6)).bytes
    #expect(tracker.reduced("huge") { after } == "/step: 5 → 6")
  }

  /// Changed fields that are not a record, or a last state that is not one, cannot be put in
  /// place: the snapshot is diffed instead.
  @Test(arguments: [
    (WireValue.record(fields: ("count", 1)), [UInt8(0xff)]),
    (WireValue.list([1, 2]), WireValue.record(fields: ("count", 2)).bytes),
  ])
  func whatCannotBePutInPlaceTakesASnapshot(_ last: WireValue, _ changed: [UInt8]) {
    let tracker = self.tracker(from: last)
    let after = WireValue.record(fields: ("count", 9)).bytes
    #expect(tracker.reduced("huge", changed: { changed }) { after }?.contains("9") == true)
  }

  @Test func nothingIsReadWhileNobodyWantsDiffs() {
    let tracker = StateTracker<String>()
    let read = { () -> [UInt8]? in
      Issue.record("a state was read while nobody wanted diffs")
      return nil
    }
    #expect(tracker.reduced("huge", changed: read, after: read) == nil)
  }
}
