import PatchbayEncoding
import PatchbayLV2
import Testing

@testable import PatchbayLV2Feature

/// An LV2 feature's state and actions, read from bytes and text that may be wrong: each wrong
/// one is one line naming the byte, the field or the action; a state of another version of the
/// plugin (a field more, a field less) still reads.
@Suite struct LV2ControlsTests {
  static let controls = LV2Controls(
    try! LV2World.shared.plugin(uri: "http://gareus.org/oss/lv2/darc#stereo"))

  @Test func aStateReadsBackClampedAndForgivingOfOtherVersions() throws {
    var values = Self.controls.defaults
    values[Self.controls.index(of: "threshold")!] = -24
    let bytes = Self.controls.state(values).bytes
    #expect(try Self.controls.values(from: bytes) == values)
    // A field this plugin lacks is ignored; one it has but the state lacks keeps its default;
    // a value beyond the port's range is clamped.
    let other = WireValue.record(fields: ("threshold", 5.0), ("sidechain", 1.0)).bytes
    let read = try Self.controls.values(from: other)
    #expect(read[Self.controls.index(of: "threshold")!] == -10)
    #expect(read[Self.controls.index(of: "attack")!] == 0.01)
  }

  @Test(arguments: [
    ([0x72, 0x09], "the state's bytes are not a value: byte "),
    (WireValue.int(3).bytes, "the state is an int, not a record of control values"),
    (
      WireValue.record(fields: ("threshold", "loud")).bytes,
      "the state's field 'threshold' is a string, not a number"
    ),
  ])
  func aWrongStateIsOneLineNamingWhatIsWrong(bytes: [UInt8], says: String) {
    #expect {
      _ = try Self.controls.values(from: bytes)
    } throws: { error in
      "\(error)".contains(says) && !"\(error)".contains("\n")
    }
  }

  @Test(arguments: [
    ("set(port: 1, value: 2)", "set needs port: the symbol of a control, as a string"),
    ("set(port: \"gain\")", "set needs value: a finite number"),
    ("preset", "preset needs name: a preset's label, as a string"),
    ("bypass", "'bypass' is not an action of an LV2 feature: use set, preset or reset"),
  ])
  func aWrongActionIsOneLine(text: String, says: String) throws {
    #expect {
      _ = try LV2Action(try WireValue(parsingAction: text))
    } throws: { "\($0)" == says }
  }

  @Test func actionsReadBackFromTheirText() throws {
    for action in [LV2Action.set(port: "gain", value: -6), .preset(name: "Live"), .reset] {
      #expect(try LV2Action(try WireValue(parsingAction: action.value.actionText)) == action)
    }
  }
}
