import PatchbayEncoding
import Testing

struct State: Codable, Equatable {
  var count = 0
  var step: UInt8 = 1
  var label: String? = nil
  var history: [Double] = []
  var mode = Mode.idle
  enum Mode: Codable, Equatable { case idle, running(speed: Int) }
}

enum Action: Codable, Equatable {
  case increment
  case setStep(by: Int)
  case say(text: String)
  case tag(String, Int)
}

@Suite struct CodableTests {
  @Test func stateRoundTripsAsARecord() throws {
    let state = State(count: 3, step: 2, label: "x", history: [1.5], mode: .running(speed: 9))
    let value = try WireValueEncoder().encode(state)
    #expect(value[field: "count"] == 3)
    #expect(value[field: "label"] == "x")
    #expect(try WireValueDecoder().decode(State.self, from: value) == state)
    #expect(
      try WireValueDecoder().decode(State.self, from: WireValue(decoding: value.bytes)) == state)
  }

  @Test func missingOptionalDecodesAsNil() throws {
    let value = WireValue.record(
      fields: ("count", 1), ("step", 1), ("history", .list([])), ("mode", .action("idle")))
    #expect(try WireValueDecoder().decode(State.self, from: value).label == nil)
  }

  @Test(arguments: [
    (Action.increment, "increment"), (.setStep(by: 5), "setStep(by: 5)"),
    (.say(text: "hi"), #"say(text: "hi")"#), (.tag("a", 2), #"tag("a", 2)"#),
  ])
  func actionsEncodeAsCases(_ action: Action, _ text: String) throws {
    let value = try WireValueEncoder().encodeAction(action)
    #expect(value.actionText == text)
    #expect(try WireValueDecoder().decodeAction(Action.self, from: value) == action)
    #expect(
      try WireValueDecoder().decodeAction(Action.self, from: WireValue(parsingAction: text))
        == action)
  }

  @Test func mismatchesNameTheField() {
    func message(_ value: WireValue) -> String {
      do {
        _ = try WireValueDecoder().decodeAction(Action.self, from: value)
        return "no error"
      } catch {
        return "\(error)"
      }
    }
    #expect(
      message(.action("setStep", ("by", "five")))
        == "field 'setStep.by': expected an int, found a string")
    #expect(message(.action("setStep")) == "field 'setStep.by': missing (the value has no fields)")
    #expect(
      message(.action("frobnicate")).contains("frobnicate")
        || message(.action("frobnicate")) != "no error")
  }

  @Test func outOfRangeIntegersAreErrors() {
    let value = WireValue.record(
      fields: ("count", 1), ("step", 300), ("history", .list([])), ("mode", .action("idle")))
    #expect(throws: (any Error).self) { try WireValueDecoder().decode(State.self, from: value) }
  }
}
