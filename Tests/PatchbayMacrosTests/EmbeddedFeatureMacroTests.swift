import PatchbayMacros
import SwiftParser
import SwiftSyntax
import SwiftSyntaxMacroExpansion
import SwiftSyntaxMacros
import SwiftSyntaxMacrosTestSupport
import XCTest

private let macros: [String: MacroSpec] = [
  "Feature": MacroSpec(type: EmbeddedFeatureMacro.self, conformances: ["Feature"]),
  "plugin": MacroSpec(type: EmbeddedPluginMacro.self),
]

/// `@Feature` and `#plugin` of the Embedded Swift SDK: the value encoding Codable gives a
/// native feature, written from the syntax, and what they refuse.
final class EmbeddedFeatureMacroTests: XCTestCase {
  func testTheStateAndTheActionsAreWrittenAndReadByName() {
    assertMacroExpansion(
      """
      @Feature
      struct Light {
        static let id: StaticString = "dev.example.light"
        struct State {
          var on = false
        }
        enum Action {
          /// Turns it on or off
          case set(on: Bool)
          @SentBy(.host) case blink(Int64, String?)
        }
      }
      """,
      expandedSource: """
        struct Light {
          static let id: StaticString = "dev.example.light"
          struct State {
            var on = false
          }
          enum Action {
            /// Turns it on or off
            case set(on: Bool)
            @SentBy(.host) case blink(Int64, String?)
          }

            static var name: StaticString {
                "Light"
            }

            static var initialState: State {
                State()
            }

            static var actions: [ActionSchema] {
              [ActionSchema("set", fields: [("on", Bool.wireType)], summary: "Turns it on or off"),
                  ActionSchema("blink", fields: [("_0", Int64.wireType), ("_1", String?.wireType)], sentBy: .host)]
            }

            static func write(_ state: State, to out: inout WireWriter) {
              out.record(1)
              out.field("on", state.on)
            }

            static func read(_ state: State, from input: inout WireReader) -> State? {
              var state = state
              guard let count = input.record() else {
                  return nil
              }
              for _ in 0 ..< count {
                guard let name = input.label() else {
                    return nil
                }
                switch name {
                case "on":
                    guard input.read(into: &state.on) else {
                        return nil
                    }
                default:
                    guard input.skip() else {
                        return nil
                    }
                }
              }
              return state
            }

            static func write(_ action: Action, to out: inout WireWriter) {
              switch action {
              case .set(let f0):
                  out.case("set", 1);
                  out.field("on", f0)
              case .blink(let f0, let f1):
                  out.case("blink", 2);
                  out.field("_0", f0);
                  out.field("_1", f1)
              }
            }

            static func read(action input: inout WireReader) -> Action? {
              guard let (name, count) = input.case() else {
                  return nil
              }
              switch name {
              case "set":
                  var f0: (Bool)? = nil
                  for _ in 0 ..< count {
                    guard let label = input.label() else {
                        return nil
                    }
                    switch label {
                    case "on":
                        guard let value = input.value((Bool).self) else {
                            return nil
                        };
                        f0 = value
                    default:
                        guard input.skip() else {
                            return nil
                        }
                    }
                  }
                  guard let f0 else {
                      return nil
                  }
                  return .set(on: f0)
              case "blink":
                  var f0: (Int64)? = nil
                  var f1: (String?)? = nil
                  for _ in 0 ..< count {
                    guard let label = input.label() else {
                        return nil
                    }
                    switch label {
                    case "_0":
                        guard let value = input.value((Int64).self) else {
                            return nil
                        };
                        f0 = value
                    case "_1":
                        guard let value = input.value((String?).self) else {
                            return nil
                        };
                        f1 = value
                    default:
                        guard input.skip() else {
                            return nil
                        }
                    }
                  }
                  guard let f0 else {
                      return nil
                  }
                  return .blink(f0, f1 ?? nil)
              default:
                  return nil
              }
            }
        }

        extension Light: Feature {
        }
        """,
      macroSpecs: macros)
  }

  /// A feature that writes `migrate(from:_:)` is marked as one that migrates.
  func testAFeatureThatMigratesIsMarked() {
    let expansion = expanded(
      """
      @Feature
      struct Lamp {
        struct State {
          var on = false
        }
        enum Action {
          case toggle
        }
        static func migrate(from schemaVersion: UInt32, _ old: inout WireReader) -> State? { nil }
      }
      """)
    XCTAssert(expansion.contains("static var migrates: Bool { true }"), expansion)
  }

  /// A state field marked `@Shared(key)` is written with its key, as the native SDK writes a
  /// `@Shared`, read with or without it, and listed in `held` with what gets and sets it.
  func testASharedFieldIsHeldAndWrittenWithItsKey() {
    let expansion = expanded(
      """
      @Feature
      struct Tally {
        struct State {
          @Shared(.inMemory("tally")) var tally: Int64 = 0
          var mine = 0
        }
        enum Action {
          case count
        }
      }
      """)
    for part in [
      #"out.field("tally", .inMemory("tally"), state.tally)"#,
      #"out.field("mine", state.mine)"#,
      #"case "tally": guard input.readShared(into: &state.tally) else { return nil }"#,
      #"case "mine": guard input.read(into: &state.mine) else { return nil }"#,
      #"static var held: [SharedHeld<State>] {"#
        + #" [SharedHeld(.inMemory("tally"), get: { $0.tally }, set: { $0.tally = $1 })] }"#,
    ] {
      XCTAssert(expansion.contains(part), "\(part) is not in:\n\(expansion)")
    }
    XCTAssertFalse(
      expanded("@Feature struct Plain { struct State {}; enum Action {} }")
        .contains("held"))
  }

  /// The expansion of `source` with the Embedded SDK's macros, its whitespace made single
  /// spaces (`{ true }` for the lines `{`, `true`, `}`), for a test about a part of it.
  private func expanded(_ source: String) -> String {
    let file = Parser.parse(source: source)
    let context = BasicMacroExpansionContext()
    let expansion = file.expand(macroSpecs: macros, contextGenerator: { _ in context })
    return expansion.description.split(whereSeparator: \.isWhitespace).joined(separator: " ")
  }

  func testAStoredLetAndAMissingStateAreRefused() {
    assertMacroExpansion(
      """
      @Feature
      struct Light {
        struct State {
          let on = false
        }
        enum Action {
          case toggle
        }
      }
      """,
      expandedSource: """
        struct Light {
          struct State {
            let on = false
          }
          enum Action {
            case toggle
          }
        }

        extension Light: Feature {
        }
        """,
      diagnostics: [
        DiagnosticSpec(
          message:
            "'let on': a state's stored properties are 'var', so that a state read back after "
            + "a swap can set them",
          line: 4, column: 9)
      ],
      macroSpecs: macros)
    assertMacroExpansion(
      """
      @Feature
      struct Light {
        enum Action {
          case toggle
        }
      }
      """,
      expandedSource: """
        struct Light {
          enum Action {
            case toggle
          }
        }

        extension Light: Feature {
        }
        """,
      diagnostics: [
        DiagnosticSpec(
          message:
            "'@Feature' in Embedded Swift needs a nested 'struct State': it writes the state's "
            + "encoding from its stored properties",
          line: 1, column: 1)
      ],
      macroSpecs: macros)
  }

  func testThePluginEntryDescribesTheFeatures() {
    assertMacroExpansion(
      """
      #plugin(id: "dev.example.lights", name: "Lights", version: "1.0.0", features: [Light.self])
      """,
      expandedSource: """
        @_cdecl("patchbay_plugin_entry")
        public func patchbay_plugin_entry(_ hostABIMajor: UInt16) -> UnsafeRawPointer {
          Plugin.describe(id: "dev.example.lights", name: "Lights", version: "1.0.0", features: [PluginFeature(Light.self)])
        }
        """,
      macroSpecs: macros)
  }
}
