import PatchbayEncoding
import Testing

@testable import PatchbayRepro

/// An action's text written as the Swift a test sends to a `TestStore`.
@Suite struct WireValueSwiftExpressionTests {
  @Test(arguments: [
    ("increment", ".increment"),
    ("dial(3)", ".dial(3)"),
    ("turn(by: -7)", ".turn(by: -7)"),
    (#"say(text: "a \"b\"\n", 2.5)"#, #".say(text: "a \"b\"\n", 2.5)"#),
    ("levels([1e-05, nan, -2.5])", ".levels([1e-05, .nan, -2.5])"),
    ("child(toggle(on: true, at: nil))", ".child(.toggle(on: true, at: nil))"),
    ("move(to: {x: 1, y: 2})", ".move(to: .init(x: 1, y: 2))"),
    ("default(in: 1)", ".`default`(`in`: 1)"),
  ])
  func anActionIsWrittenAsSwift(text: String, swift: String) throws {
    #expect(try WireValue(parsingAction: text).swiftExpression == swift)
  }

  /// Numbers no literal writes (decoded from bytes, not parsed from text) are named.
  @Test func nonFiniteNumbersAreNamed() {
    let value = WireValue.list([.double(.nan), .double(.infinity), .double(-.infinity)])
    #expect(value.swiftExpression == "[.nan, .infinity, -.infinity]")
  }
}
