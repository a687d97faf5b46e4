import Foundation
import PatchbayEncoding
import Testing

@testable import PatchbayHost
@testable import PatchbayLoader

/// `ffi_call` round trips through the fixture's functions: every type, its extremes.
@Suite struct FunctionCallTests {
  let plugin: LoadedPlugin

  init() throws {
    self.plugin = try BuiltPlugins.loader.load(try BuiltPlugins.fixture("fine"))
  }

  func call(_ name: String, _ values: [WireValue]) throws -> WireValue {
    try #require(self.plugin.function(name)).call(values)
  }

  @Test func everyScalarTypeRoundTripsItsExtremes() throws {
    let cases: [(String, [Int64])] = [
      ("int8", [-128, -1, 0, 127]), ("uint8", [0, 255]), ("int16", [-32_768, 32_767]),
      ("uint16", [0, 65_535]), ("int32", [Int64(Int32.min), -69, Int64(Int32.max)]),
      ("uint32", [0, Int64(UInt32.max)]), ("int64", [Int64.min, -1, Int64.max]),
      ("uint64", [0, Int64.max]), ("size", [0, 1 << 40]), ("pointer", [0, 0x7fff_0000_1234]),
    ]
    for (name, values) in cases {
      for value in values {
        #expect(try self.call(name, [.int(value)]) == .int(value), "\(name)(\(value))")
      }
    }
    #expect(try self.call("not", [.bool(true)]) == .bool(false))
    #expect(try self.call("not", [.bool(false)]) == .bool(true))
    #expect(try self.call("float_", [.double(-1.5)]) == .double(-1.5))
    #expect(try self.call("float_", [.int(3)]) == .double(3))
    #expect(try self.call("nothing", []) == .nil)
  }

  @Test func mixedArgumentsReachTheirRegistersAndTheStack() throws {
    let result = try self.call(
      "mix",
      [.int(-100), .int(60_000), .int(-2_000_000), .int(1 << 40), .double(0.5), .double(-0.25)])
    #expect(result == .double(-100 + 60_000 - 2_000_000 + Double(1 << 40) + 0.5 - 0.25))
  }

  @Test func buffersStringsAndOutStrings() throws {
    #expect(try self.call("sum", [.list([.int(1), .int(2), .int(255)])]) == .int(258))
    #expect(try self.call("sum", [.list([])]) == .int(0))
    #expect(try self.call("sum", [.string("AB")]) == .int(65 + 66))
    #expect(try self.call("greet", [.string("Blob")]) == .string("hello, Blob"))
    // Longer than the first 256-byte buffer: the host calls again with one that fits.
    let long = String(repeating: "x", count: 1_000)
    #expect(try self.call("greet", [.string(long)]) == .string("hello, " + long))
  }

  @Test func wrongArgumentsAreRefusedNamingTheArgument() throws {
    func refusal(_ name: String, _ values: [WireValue]) -> String {
      do {
        _ = try self.call(name, values)
        return "(no error)"
      } catch {
        return "\(error)"
      }
    }
    #expect(
      refusal("int8", [.int(128)]) == "Fixture.int8: argument 1 (int8) takes -128 to 127, got 128")
    #expect(refusal("uint32", [.int(-1)]).contains("argument 1 (uint32) takes 0 to 4294967295"))
    #expect(
      refusal("int32", [.string("69")]).contains("argument 1 (int32) takes an integer, got \"69\""))
    #expect(refusal("not", [.int(1)]).contains("takes true or false"))
    #expect(
      refusal("mix", [.int(1)]).contains(
        "takes 6 argument(s) (double(int8, uint16, int32, int64, float, double)), got 1"))
    #expect(
      refusal("sum", [.list([.int(256)])]).contains(
        "element 0 is 256; a buffer holds bytes, 0 to 255"))
    #expect(refusal("greet", [.int(1)]).contains("takes a string"))
    // A text longer than the largest buffer the host offers.
    #expect(
      refusal("greet", [.string(String(repeating: "x", count: 70_000))])
        == "Fixture.greet: needs 70007 bytes for its text; the most is 65536")
  }

  /// A plugin built against ABI 2.0 (its descriptor ends before the functions) still loads.
  @Test func aPluginOfThePreviousMinorLoads() throws {
    let old = try BuiltPlugins.loader.load(try BuiltPlugins.fixture("abi20"))
    #expect(old.abiMajor == 2)
    #expect(old.abiMinor == 0)
    #expect(old.functions.isEmpty)
    #expect(old.features.map(\.id) == ["dev.patchbay.fixture"])
  }

  @Test func aSignatureThatDoesNotParseFailsTheLoadNamingTheColumn() throws {
    let path = try BuiltPlugins.fixture("badsignature")
    let message = errorMessage { _ = try BuiltPlugins.loader.load(path) }
    #expect(
      message
        == "\(path): function 'broken': signature 'double(int32,, double)' does not parse: column 14: expected a type. See patchbay/functions.h for the grammar."
    )
  }
}
