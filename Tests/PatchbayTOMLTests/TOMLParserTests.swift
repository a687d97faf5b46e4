import PatchbayTOML
import Testing

@Suite struct TOMLParserTests {
  @Test func parsesTablesArraysAndValues() throws {
    let document = try TOMLDocument(
      parsing: """
        # comment
        [app]
        name = "Demo \\"quoted\\"" # trailing comment
        count = 1_000
        ratio = 0.5
        on = true
        literal = 'C:\\path'

        [plugins]
        load = [
          "Counter",  # one
          "Echo",
        ]

        [[feature]]
        key = "a"
        [[feature]]
        key = "b"

        [routes]
        "/practice/quiz" = "quiz"
        """)
    let app = try #require(document.tables["app"])
    #expect(app["name"]?.kind == .string("Demo \"quoted\""))
    #expect(app["count"]?.kind == .integer(1000))
    #expect(app["ratio"]?.kind == .float(0.5))
    #expect(app["on"]?.kind == .boolean(true))
    #expect(app["literal"]?.kind == .string("C:\\path"))
    #expect(app["count"]?.line == 4)
    let load = try #require(document.tables["plugins"]?["load"])
    guard case .array(let values) = load.kind else { throw Failure("not an array") }
    #expect(values.map(\.kind) == [.string("Counter"), .string("Echo")])
    #expect(values.map(\.line) == [11, 12])
    #expect(document.arrays["feature"]?.map { $0["key"]?.kind } == [.string("a"), .string("b")])
    #expect(document.tables["routes"]?["/practice/quiz"]?.kind == .string("quiz"))
  }

  @Test(arguments: [
    (
      "[app]\nname = Demo",
      "line 2, column 8: 'Demo' is not a value (strings need quotes: \"Demo\")"
    ),
    ("[app]\nname = \"Demo", "line 2, column 8: this string has no closing '\"' on its line"),
    ("[app]\nname = \"a\"\nname = \"b\"", "line 3, column 1: key 'name' is defined twice in [app]"),
    ("[app]\n[app]", "line 2, column 1: table [app] is defined twice"),
    (
      "[app\nname = 1",
      "line 1, column 5: expected ']' after the table name, found the end of the line"
    ),
    ("[app]\na.b = 1", "line 2, column 2: dotted keys are not supported; use a [table] header"),
    (
      "[app]\nx = { a = 1 }",
      "line 2, column 5: inline tables are not supported; use a [table] header"
    ),
    (
      "[app]\nx = [1, 2",
      "line 2, column 10: expected ',' or ']' in an array, found the end of the file"
    ),
    ("[app]\nx = 1 2", "line 2, column 7: expected the end of the line, found '2'"),
  ])
  func syntaxErrorsNameLineAndColumn(_ text: String, _ message: String) {
    #expect(throws: TOMLSyntaxError.self) { try TOMLDocument(parsing: text) }
    do {
      _ = try TOMLDocument(parsing: text)
    } catch {
      #expect(error.description == message)
    }
  }
  /// Found by the toml fuzzer: a file of nested `[` overflowed the stack of a debug build.
  @Test func deepArraysAreAnErrorNotACrash() throws {
    let deep = "list = " + String(repeating: "[", count: 100_000)
    #expect(throws: TOMLSyntaxError.self) { try TOMLDocument(parsing: deep) }
    do {
      _ = try TOMLDocument(parsing: deep)
    } catch {
      #expect(error.description == "line 1, column 41: arrays nest deeper than 32 levels")
    }
    let ok = "list = " + String(repeating: "[", count: 33) + String(repeating: "]", count: 33)
    #expect(try TOMLDocument(parsing: ok).root["list"] != nil)
  }
}

struct Failure: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }

}
