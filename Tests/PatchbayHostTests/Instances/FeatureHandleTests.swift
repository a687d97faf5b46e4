import Foundation
import PatchbayEncoding
import PatchbayHost
import PatchbayLoader
import PatchbayTestWaiting
import Testing

@Suite(.highPriority) struct FeatureHandleTests {
  let counter: LoadedFeature
  let echo: LoadedFeature

  init() throws {
    self.counter = try BuiltPlugins.loader.load("Counter").features[0]
    self.echo = try BuiltPlugins.loader.load("Echo").features[0]
  }

  @Test func swiftAndCFeaturesRunSideBySide() throws {
    let counter = try FeatureHandle(feature: self.counter)
    let echo = try FeatureHandle(feature: self.echo)
    try counter.send(text: "setStep(by: 5)")
    try counter.send(text: "increment")
    try echo.send(text: #"say(text: "hello \"there\"")"#)
    try echo.send(text: #"say(text: "again")"#)
    #expect(try counter.stateJSON() == #"{"count":5,"step":5,"pending":0}"#)
    #expect(try counter.render() == "Count: 5\nStep:  5")
    #expect(try echo.stateJSON() == #"{"message":"again","count":2}"#)
    #expect(try echo.render() == "Heard 2 message(s). Last:\nagain")
  }

  @Test func actionsRoundTripThroughTextAndBytes() throws {
    let counter = try FeatureHandle(feature: self.counter)
    let bytes = try counter.parseAction("setStep(by: 5)")
    #expect(bytes == WireValue.action("setStep", ("by", 5)).bytes)
    #expect(try counter.formatAction(bytes) == "setStep(by: 5)")
    let say = try self.echo.parseAction(#"say(text: "a\nb")"#)
    #expect(try self.echo.formatAction(say) == #"say(text: "a\nb")"#)
  }

  @Test func snapshotRestoresIntoANewInstance() throws {
    let first = try FeatureHandle(feature: self.echo)
    try first.send(text: #"say(text: "remember me")"#)
    let restored = try FeatureHandle(feature: self.echo, restoring: try first.snapshot())
    #expect(try restored.stateJSON() == #"{"message":"remember me","count":1}"#)

    let counter = try FeatureHandle(feature: self.counter)
    try counter.send(text: "setStep(by: 2)")
    try counter.send(text: "increment")
    let copy = try FeatureHandle(feature: self.counter, restoring: try counter.snapshot())
    #expect(try copy.stateValue() == (try counter.stateValue()))
  }

  @Test func effectsFeedActionsBackThroughTheHostInOrder() async throws {
    let counter = try FeatureHandle(feature: self.counter)
    try counter.send(text: "rampUp(times: 100)")
    // 1 + 2 + … + 100, only if every setStep(by: i) arrives before its increment.
    let done = await eventually { (try? counter.stateValue()[field: "count"]) == 5050 }
    #expect(done)
    #expect(try counter.stateValue()[field: "step"] == 100)
    #expect(counter.reducedCount == 201)
  }

  @Test func delayedEffectRunsInsideThePlugin() async throws {
    let counter = try FeatureHandle(feature: self.counter)
    try counter.send(text: "incrementLater(ms: 500)")  // long enough to look before it lands
    #expect(try counter.stateValue()[field: "pending"] == 1)
    #expect(await eventually { (try? counter.stateValue()[field: "count"]) == 1 })
    #expect(try counter.stateValue()[field: "pending"] == 0)
  }

  @Test func cancellingEffectsDropsTheirActions() async throws {
    let counter = try FeatureHandle(feature: self.counter)
    try counter.send(text: "incrementLater(ms: 86400000)")  // a day: until cancelled
    #expect(counter.isQuiet == false)
    counter.cancelEffects()
    #expect(await eventually { counter.isQuiet })  // the effect ended, without sending
    #expect(try counter.stateValue()[field: "count"] == 0)
  }
}

/// Bad actions and state: a clear error, and the instance keeps its state.
@Suite(.highPriority) struct FeatureHandleBadInputTests {
  @Test(arguments: [
    (
      "frobnicate",
      "dev.patchbay.counter: parse_action failed: dev.patchbay.counter: cannot parse action 'frobnicate'"
    ),
    ("setStep(by: \"five\")", "field 'setStep.by': expected an int, found a string"),
    ("setStep(by: 5", "column 14: expected ',' or ')' in 'setStep(…)', found the end"),
  ])
  func unparseableActionTextForSwiftFeature(_ text: String, _ expected: String) throws {
    let counter = try FeatureHandle(feature: try BuiltPlugins.loader.load("Counter").features[0])
    try counter.send(text: "increment")
    let message = errorMessage { try counter.send(text: text) }
    #expect(message.contains(expected))
    #expect(message.contains("Actions: increment, decrement, reset, setStep"))
    #expect(try counter.stateValue()[field: "count"] == 1)
  }

  @Test func unparseableActionTextForCFeature() throws {
    let echo = try FeatureHandle(feature: try BuiltPlugins.loader.load("Echo").features[0])
    try echo.send(text: #"say(text: "kept")"#)
    #expect(
      errorMessage { try echo.send(text: "shout(text: \"x\")") }
        == "dev.patchbay.echo: parse_action failed: dev.patchbay.echo: unknown action 'shout'. "
        + "Send say(text: \"…\").")
    #expect(
      errorMessage { try echo.send(text: "say(text: \"x\"") }
        == "dev.patchbay.echo: parse_action failed: dev.patchbay.echo: cannot parse "
        + "'say(text: \"x\"': column 14: expected ',' or ')'. Send say(text: \"…\").")
    #expect(
      errorMessage { try echo.send(text: "say(text: \"x\", loud: true)") }
        .hasSuffix("unknown action 'say'. Send say(text: \"…\")."))
    #expect(try echo.stateJSON() == #"{"message":"kept","count":1}"#)
  }

  /// Echo reads and writes the SDK's text grammar (through pb_parse_action_text and
  /// pb_format_value_text): escapes, Unicode and control characters survive both ways.
  @Test func cFeatureTextRoundTripsEscapes() throws {
    let echo = try FeatureHandle(feature: try BuiltPlugins.loader.load("Echo").features[0])
    let text = #"say(text: "\u{1b}[2J \"q\" \\ é😀\n")"#
    let bytes = try echo.parseAction(text)
    #expect(bytes == WireValue.action("say", ("text", "\u{1B}[2J \"q\" \\ é😀\n")).bytes)
    #expect(try echo.formatAction(bytes) == text)
    try echo.send(text: #"say( text : "\u{41}" )"#)
    #expect(try echo.stateJSON() == #"{"message":"A","count":1}"#)
  }

  @Test func undecodableActionBytesAreRefusedAndStateKept() throws {
    let counter = try FeatureHandle(feature: try BuiltPlugins.loader.load("Counter").features[0])
    let echo = try FeatureHandle(feature: try BuiltPlugins.loader.load("Echo").features[0])
    try counter.send(text: "increment")
    try echo.send(text: #"say(text: "kept")"#)
    counter.send([0xFF, 0x00])
    counter.send(WireValue.action("explode").bytes)
    echo.send([0x63, 0x03])
    echo.send(WireValue.action("shout", ("text", "x")).bytes)
    #expect(counter.failures.count == 2)
    #expect(
      counter.failures[0].hasPrefix(
        "dev.patchbay.counter: reduce failed: dev.patchbay.counter: cannot decode action: byte 0: unknown value tag 0xFF"
      ))
    #expect(counter.failures[1].contains("explode"))
    #expect(
      echo.failures == [
        "dev.patchbay.echo: reduce failed: dev.patchbay.echo: cannot decode action: byte 1: value ends early. Send say(text: \"…\").",
        "dev.patchbay.echo: reduce failed: dev.patchbay.echo: unknown action 'shout'. Send say(text: \"…\").",
      ])
    #expect(try counter.stateJSON() == #"{"count":1,"step":1,"pending":0}"#)
    #expect(try echo.stateJSON() == #"{"message":"kept","count":1}"#)
    try counter.send(text: "increment")
    #expect(try counter.stateValue()[field: "count"] == 2)
  }

  @Test func corruptStateBytesGivenToCreate() throws {
    let counter = try BuiltPlugins.loader.load("Counter").features[0]
    let echo = try BuiltPlugins.loader.load("Echo").features[0]
    #expect(
      errorMessage { _ = try FeatureHandle(feature: counter, restoring: [0x72, 9, 9]) }.hasPrefix(
        "dev.patchbay.counter: create failed: dev.patchbay.counter: cannot restore state (schema 1): byte 1: the bytes end inside a field count"
      ))
    #expect(
      errorMessage {
        _ = try FeatureHandle(
          feature: counter, restoring: WireValue.record(fields: ("count", "x")).bytes)
      }.contains("field 'count': expected an int, found a string"))
    #expect(
      errorMessage { _ = try FeatureHandle(feature: echo, restoring: [0x72, 1, 0, 0, 0, 7]) }
        == "dev.patchbay.echo: create failed: dev.patchbay.echo: cannot restore state: byte 5: value ends early. Pass a snapshot made by this feature."
    )
    #expect(
      errorMessage { _ = try FeatureHandle(feature: echo, restoring: []) }.contains(
        "cannot restore state"))
    #expect(
      errorMessage {
        _ = try FeatureHandle(
          feature: echo, restoring: WireValue.record(fields: ("count", "x")).bytes)
      }
        == "dev.patchbay.echo: create failed: dev.patchbay.echo: cannot restore state: field 'count': expected an int, found a string. Pass a snapshot made by this feature."
    )
  }

  /// A C feature reading its state with sdk.h's pb_sdk_read_state follows the Swift SDK's
  /// rules for a state of another build: a missing field keeps its start value, an unknown one
  /// is dropped, fields in any order.
  @Test func aCFeatureReadsAStateOfAnotherBuildByFieldName() throws {
    let echo = try BuiltPlugins.loader.load("Echo").features[0]
    let added = try FeatureHandle(
      feature: echo, restoring: WireValue.record(fields: ("count", 3)).bytes)
    #expect(try added.stateValue() == .record(fields: ("message", ""), ("count", 3)))
    let removed = try FeatureHandle(
      feature: echo,
      restoring: WireValue.record(fields: ("mood", "calm"), ("count", 2), ("message", "hi")).bytes)
    #expect(try removed.stateValue() == .record(fields: ("message", "hi"), ("count", 2)))
  }
}
