import PatchbayEncoding
import Testing

@Suite struct WireValueTextTests {
  @Test func parsesTheForms() throws {
    #expect(try WireValue(parsingAction: "increment") == .action("increment"))
    #expect(try WireValue(parsingAction: " setStep( by: 5 ) ") == .action("setStep", ("by", 5)))
    #expect(
      try WireValue(parsingAction: #"say(text: "hi \"you\"\n")"#)
        == .action("say", ("text", "hi \"you\"\n")))
    #expect(
      try WireValue(parsingAction: "tune(-1.5, on: true, off: false, none: nil)")
        == .action("tune", ("_0", -1.5), ("on", true), ("off", false), ("none", .nil)))
    #expect(
      try WireValue(parsingAction: "load(steps: [1, 2], at: {x: 1}, then: play(fast: true))")
        == .action(
          "load", ("steps", .list([1, 2])), ("at", .record(fields: ("x", 1))),
          ("then", .action("play", ("fast", true)))))
    #expect(
      try WireValue(parsingAction: #"say(text: "\u{2713}")"#) == .action("say", ("text", "✓")))
  }

  @Test(arguments: [
    "increment", "setStep(by: 5)", #"say(text: "a \"b\" \\ c")"#, "tune(-1.5, on: true)",
    "load(steps: [1, 2], at: {x: 1})", "pick(none: nil)", "scale(by: 2.0)",
  ])
  func formatsWhatItParses(_ text: String) throws {
    #expect(try WireValue(parsingAction: text).actionText == text)
  }

  @Test(arguments: [
    ("", "column 1: expected an action name, found nothing"),
    (
      "setStep(by: )",
      "column 13: expected a value (number, \"string\", true, false, nil, [list], {record}), found ')'"
    ),
    ("setStep(by: 5", "column 14: expected ',' or ')' in 'setStep(…)', found the end"),
    ("setStep by: 5", "column 9: unexpected 'b' after the action; put arguments in parentheses"),
    (#"say(text: "hi)"#, "column 11: a string starting here has no closing '\"'"),
    ("setStep(by: 1, by: 2)", "column 16: 'by' is given twice in 'setStep(…)'"),
    ("setStep(by: 1x)", "column 14: expected ',' or ')' in 'setStep(…)', found 'x'"),
    ("setStep(by: --1)", "column 13: '--1' is not a number"),
    ("5", "column 1: expected a name, found '5'"),
  ])
  func errorsNameTheColumn(_ text: String, _ message: String) {
    #expect(throws: ActionTextError.self) { try WireValue(parsingAction: text) }
    do {
      _ = try WireValue(parsingAction: text)
    } catch {
      #expect(error.description == message)
    }
  }
}
