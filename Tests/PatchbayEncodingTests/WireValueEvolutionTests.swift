import PatchbayEncoding
import Testing

/// A snapshot filled from a start state, and the fields it has that another value lacks.
@Suite struct WireValueEvolutionTests {
  let start: WireValue = .record(
    fields: ("seconds", 25), ("label", "practice"),
    ("timer", .record(fields: ("ticks", 0), ("lap", 1))))

  @Test func addedFieldsTakeTheTemplatesValuesAtEveryDepth() {
    let old: WireValue = .record(fields: ("seconds", 60), ("timer", .record(fields: ("ticks", 7))))
    #expect(
      old.filled(from: self.start)
        == .record(
          fields: ("seconds", 60), ("timer", .record(fields: ("ticks", 7), ("lap", 1))),
          ("label", "practice")))
    #expect(old.fieldsAdded(in: self.start) == ["label", "timer.lap"])  // in the template's order
  }

  @Test func fieldsTheTemplateLacksAreKeptAndNamed() {
    let old: WireValue = .record(fields: ("seconds", 60), ("note", "slow"))
    #expect(old.filled(from: self.start)[field: "note"] == "slow")
    #expect(old.fieldsNotIn(self.start) == ["note"])
  }

  @Test func otherValuesAreLeftAsTheyAre() {
    // A list has no template for its elements; a value of another kind is not a record.
    let list: WireValue = .list([.record(fields: ("number", 1))])
    #expect(list.filled(from: .list([.record(fields: ("number", 0), ("split", 0))])) == list)
    #expect(WireValue.int(3).filled(from: self.start) == .int(3))
    // An enum value's fields are filled only from the same case.
    let rest: WireValue = .case("rest", [])
    #expect(rest.filled(from: .case("count", [.init("by", 1)])) == rest)
    #expect(
      WireValue.case("count", []).filled(from: .case("count", [.init("by", 1)]))
        == .case("count", [.init("by", 1)]))
  }
}
