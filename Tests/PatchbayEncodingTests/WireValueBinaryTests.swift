import PatchbayEncoding
import Testing

@Suite struct WireValueBinaryTests {
  static let samples: [WireValue] = [
    .nil, true, false, 0, -1, .int(.max), .int(.min), 1.5, .double(-0.0), "", "héllo ✓",
    .list([]), .list([1, "two", .list([3.0])]),
    .record(fields: ("count", 2), ("name", "x")),
    .action("increment"), .action("setStep", ("by", 5)),
    .action("nested", ("_0", .record(fields: ("deep", .list([.nil]))))),
  ]

  @Test(arguments: samples)
  func roundTrips(_ value: WireValue) throws {
    #expect(try WireValue(decoding: value.bytes) == value)
  }

  /// A plugin once wrote a record with `count` twice: JSON showed both, `expect` read one.
  @Test(arguments: [3, 12])
  func aFieldNameTwiceInOneRecordIsRefused(fieldCount: Int) {
    var fields = (0..<fieldCount - 1).map { WireValue.Field("f\($0)", .int(Int64($0))) }
    fields.append(WireValue.Field("f0", .int(99)))
    let bytes = WireValue.record(fields).bytes
    #expect {
      try WireValue(decoding: bytes)
    } throws: { error in
      "\(error)".contains("the field name 'f0' appears twice in one record or case")
    }
  }

  @Test func caseNameIsReadFromTheHeader() {
    #expect(
      WireValue.caseName(of: WireValue.action("delegate", ("_0", .action("done"))).bytes)
        == "delegate")
    #expect(WireValue.caseName(of: WireValue.action("increment").bytes) == "increment")
    #expect(WireValue.caseName(of: WireValue.int(3).bytes) == nil)
    #expect(WireValue.caseName(of: [0x63, 9, 0, 0x61]) == nil)  // name runs past the end
    #expect(WireValue.caseName(of: []) == nil)
  }

  @Test func setStepMatchesTheDocumentedBytes() {
    let bytes = WireValue.action("setStep", ("by", 5)).bytes
    let expected: [UInt8] =
      [0x63, 7, 0] + Array("setStep".utf8) + [1, 0, 0, 0, 2, 0] + Array("by".utf8)
      + [0x69, 5, 0, 0, 0, 0, 0, 0, 0]
    #expect(bytes == expected)
  }

  @Test func errorsNameTheByteAndTheProblem() {
    func error(_ bytes: [UInt8]) -> String {
      do {
        _ = try WireValue(decoding: bytes)
        return "no error"
      } catch {
        return error.description
      }
    }
    #expect(error([]) == "byte 0: the bytes end inside a value tag (needs 1, 0 left)")
    #expect(error([0x7A]) == "byte 0: unknown value tag 0x7A (expected one of n b i f s l r c)")
    #expect(error([0x62, 2]) == "byte 1: a bool must be 0 or 1")
    #expect(error([0x69, 1, 2]) == "byte 1: the bytes end inside an int (needs 8, 2 left)")
    #expect(error([0x73, 2, 0, 0, 0, 0xFF, 0xFE]) == "byte 5: a string is not valid UTF-8")
    #expect(error([0x6E, 0x6E]) == "byte 1: 1 unexpected byte(s) after the value")
    #expect(
      error([0x6C, 0xFF, 0xFF, 0xFF, 0x7F])
        == "byte 1: a list of 2147483647 is more than the 0 bytes left")
    let listOpener: [UInt8] = [0x6C, 1, 0, 0, 0]
    let deep: [UInt8] = Array((0..<100).map { _ in listOpener }.joined()) + [0x6E]
    #expect(error(deep).contains("nested deeper than 64 levels"))
  }

  @Test func randomGarbageNeverCrashes() {
    var generator = SystemRandomNumberGenerator()
    var decoded = 0
    for length in 0..<2_000 {
      let bytes = (0..<(length % 64)).map { _ in UInt8.random(in: 0...255, using: &generator) }
      if (try? WireValue(decoding: bytes)) != nil { decoded += 1 }
    }
    // Some short inputs (a lone 'n', 'b' 0/1, …) are valid; most garbage is not.
    #expect(decoded < 2_000)
  }
}
