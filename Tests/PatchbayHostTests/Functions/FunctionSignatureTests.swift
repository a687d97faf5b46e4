import Testing

@testable import PatchbayFunctions
@testable import PatchbayHost

@Suite struct FunctionSignatureTests {
  @Test func parsesTheGrammar() throws {
    let signature = try FunctionSignature(parsing: " double ( int32 ,double ) ")
    #expect(signature.returns == .double)
    #expect(signature.parameters == [.int32, .double])
    #expect(signature.description == "double(int32, double)")
    #expect(try FunctionSignature(parsing: "void()").parameters.isEmpty)
    #expect(
      try FunctionSignature(parsing: "int32(buffer, out_string)").parameters == [
        .buffer, .outString,
      ])
    #expect(try FunctionSignature(parsing: "int32(buffer, out_string)").outStringIndex == 1)
  }

  @Test(arguments: [
    ("double(int32,, double)", 14, "expected a type"),
    ("dubble(int32)", 1, "unknown type 'dubble'. Did you mean 'double'?"),
    ("double int32", 8, "expected '(', found 'i'"),
    ("double(int32", 13, "expected ')', found the end"),
    ("double(int32) x", 15, "unexpected text after ')'"),
    ("string(int32)", 1, "'string' can only be a parameter"),
    ("int32(void)", 7, "'void' can only be a return type"),
    ("int32(out_string, out_string)", 19, "at most one out_string"),
    ("double(out_string)", 1, "returns the length it needs"),
  ])
  func refusesWithTheColumn(text: String, column: Int, reason: String) {
    do {
      _ = try FunctionSignature(parsing: text)
      Issue.record("'\(text)' should not parse")
    } catch {
      #expect(error.column == column, "\(text): \(error)")
      #expect(error.reason.contains(reason), "\(text): \(error)")
    }
  }
}
