import PatchbayABI
import PatchbayEncoding
import Testing

/// The text grammar of `patchbay/value.h`, read the same by the Swift SDK and by
/// `pb_parse_action_text`, and written the same by `actionText` and `pb_format_value_text`.
@Suite struct TextGrammarTests {
  /// What the C parser writes for `text`, or nil with its reason.
  func cParse(_ text: String) -> (bytes: [UInt8]?, error: String?) {
    var error: UnsafePointer<CChar>?
    var offset = 0
    let (status, bytes) = collect { writer in
      let utf8 = Array(text.utf8)
      return utf8.withUnsafeBufferPointer { buffer in
        buffer.withMemoryRebound(to: CChar.self) {
          pb_parse_action_text($0.baseAddress, $0.count, writer, &error, &offset)
        }
      }
    }
    return status == 0 ? (bytes, nil) : (nil, "byte \(offset): \(String(cString: error!))")
  }

  func cFormat(_ value: WireValue) -> String? {
    let bytes = value.bytes
    let (status, text) = collect { writer in
      bytes.withUnsafeBufferPointer { pb_format_value_text($0.baseAddress, $0.count, writer) }
    }
    return status == 0 ? String(decoding: text, as: UTF8.self) : nil
  }

  @Test(arguments: [
    ("spaced ( a : 1 , b : [ ] )", WireValue.action("spaced", ("a", 1), ("b", .list([])))),
    ("n(a: 1_000, b: +5, c: -0)", .action("n", ("a", 1000), ("b", 5), ("c", 0))),
    (
      "d(a: .5, b: 5., c: -1E-3, d: 1e2)",
      .action("d", ("a", 0.5), ("b", 5.0), ("c", -0.001), ("d", 100.0))
    ),
    (
      "k(true, false(x: 1), nil)",
      .action("k", ("_0", true), ("_1", .action("false", ("x", 1))), ("_2", .nil))
    ),
    ("m(a: 1, 2)", .action("m", ("a", 1), ("_1", 2))),
    (#"s(t: "\u{1F600}\u{41}\r")"#, .action("s", ("t", "😀A\r"))),
    ("_x9(r: {_0: 1})", .action("_x9", ("r", .record(fields: ("_0", 1))))),
  ])
  func bothParsersReadTheSame(_ text: String, _ value: WireValue) throws {
    #expect(try WireValue(parsingAction: text) == value)
    #expect(self.cParse(text).bytes == value.bytes)
  }

  @Test(arguments: [
    "big(n: 9223372036854775808)",  // past Int64: an error, not a double
    "rec(r: {1, 2})",  // a record needs labels
    "café",  // names are ASCII
    "e(x: 1e999)",  // not finite
    #"s(t: "\u{D800}")"#,  // a surrogate
    #"s(t: "\u{+41}")"#,  // hex digits only
    "a\n(1)",  // only spaces and tabs are blank
    "dup(a: 1, a: 2)",
    "pos(1, _0: 2)",  // "_0" given twice
    String(repeating: "a(", count: 66) + String(repeating: ")", count: 66),
  ])
  func bothParsersRefuseTheSame(_ text: String) {
    #expect(throws: ActionTextError.self) { try WireValue(parsingAction: text) }
    #expect(self.cParse(text).bytes == nil)
  }

  @Test func nestingStopsAt64LevelsAsTheEncodingDoes() throws {
    let deepest = "a(" + String(repeating: "[", count: 63) + String(repeating: "]", count: 63) + ")"
    let value = try WireValue(parsingAction: deepest)
    #expect(try WireValue(decoding: value.bytes) == value)
    #expect(self.cParse(deepest).bytes == value.bytes)
  }

  @Test func anOverflowingIntSaysHowToWriteADecimal() {
    #expect(throws: ActionTextError.self) {
      try WireValue(parsingAction: "n(x: 99999999999999999999)")
    }
    do {
      _ = try WireValue(parsingAction: "n(x: 99999999999999999999)")
    } catch {
      #expect(error.reason.contains("write 99999999999999999999.0 for a decimal"))
    }
    #expect(self.cParse("n(x: 99999999999999999999)").error?.contains("64-bit") == true)
  }

  @Test(arguments: [
    (0.0, "0.0"), (-0.0, "-0.0"), (100.0, "100.0"), (2.5, "2.5"), (0.0001, "0.0001"),
    (0.00001, "1e-05"), (9007199254740992.0, "9007199254740992.0"),
    (9007199254740994.0, "9.007199254740994e+15"), (1e300, "1e+300"),
    (Double.leastNonzeroMagnitude, "5e-324"), (6.386688990511104e+293, "6.386688990511104e+293"),
    (Double.nan, "nan"), (-Double.infinity, "-inf"),
  ])
  func doublesAreWrittenAlike(_ value: Double, _ text: String) {
    #expect(WireValue.double(value).actionText == text)
    #expect(self.cFormat(.double(value)) == text)
  }

  @Test func randomDoublesAreWrittenAlikeAndReadBack() throws {
    var generator = SystemRandomNumberGenerator()
    for _ in 0..<20_000 {
      let value = Double(bitPattern: generator.next())
      guard value.isFinite else { continue }
      let text = WireValue.double(value).actionText
      #expect(self.cFormat(.double(value)) == text)
      #expect(try WireValue(parsingAction: "x(\(text))") == .action("x", ("_0", .double(value))))
    }
  }

  @Test func stringsEscapeControlCharactersAlike() {
    let value = WireValue.action("say", ("text", "a\u{1B}[2J\u{7F}\"\\\n\t\r"))
    let text = #"say(text: "a\u{1b}[2J\u{7f}\"\\\n\t\r")"#
    #expect(value.actionText == text)
    #expect(self.cFormat(value) == text)
    #expect(self.cParse(text).bytes == value.bytes)
  }

  @Test func recordsWriteEveryLabel() {
    let value = WireValue.action("r", ("_0", .record(fields: ("_0", 1))))
    #expect(value.actionText == "r({_0: 1})")
    #expect(self.cFormat(value) == "r({_0: 1})")
  }

  @Test func cRefusesInvalidUTF8InAString() {
    let bytes: [UInt8] = Array(#"s(t: ""#.utf8) + [0xC3, 0x28] + Array(#"")"#.utf8)
    let (status, _) = collect { writer in
      bytes.withUnsafeBufferPointer { buffer in
        buffer.withMemoryRebound(to: CChar.self) {
          pb_parse_action_text($0.baseAddress, $0.count, writer, nil, nil)
        }
      }
    }
    #expect(status == -1)
  }
}

/// Runs `body` with a writer that keeps everything.
func collect(_ body: (UnsafePointer<pb_writer>) -> Int32) -> (Int32, [UInt8]) {
  final class Sink { var bytes: [UInt8] = [] }
  let sink = Sink()
  var writer = pb_writer(
    struct_size: UInt32(MemoryLayout<pb_writer>.size),
    context: Unmanaged.passUnretained(sink).toOpaque(),
    write: { context, bytes, length in
      let sink = Unmanaged<Sink>.fromOpaque(context!).takeUnretainedValue()
      sink.bytes.append(contentsOf: UnsafeRawBufferPointer(start: bytes, count: length))
      return length
    })
  let status = withExtendedLifetime(sink) { withUnsafePointer(to: &writer) { body($0) } }
  return (status, sink.bytes)
}
