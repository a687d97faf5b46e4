import Testing

@testable import PatchbayPlugin

/// A Swift feature's view reaches the host as plain text: control characters but newline are
/// written as their escapes, whatever `render` returns.
@Suite struct PlainViewTests {
  @Test func controlCharactersButNewlineAreEscaped() {
    #expect(plainView("Count: 3\nStep: 1") == "Count: 3\nStep: 1")
    #expect(
      plainView("red \u{1B}[31m\tbell\u{07} del\u{7F} csi\u{9B}")
        == "red \\u{1b}[31m\\u{9}bell\\u{7} del\\u{7f} csi\\u{9b}")
    #expect(plainView("C♯ ü 😀") == "C♯ ü 😀")
  }
}
