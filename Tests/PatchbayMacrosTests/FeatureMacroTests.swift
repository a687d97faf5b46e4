import PatchbayMacros
import SwiftSyntax
import SwiftSyntaxMacroExpansion
import SwiftSyntaxMacros
import SwiftSyntaxMacrosTestSupport
import XCTest

private let macros: [String: MacroSpec] = [
  "Feature": MacroSpec(type: FeatureMacro.self),
  "SentBy": MacroSpec(type: NoOpPeerMacro.self),
]

/// `@Feature` writes `actions` from `enum Action`; a list written beside it is refused.
final class FeatureMacroTests: XCTestCase {
  func testActionsComeFromTheEnumWithSummariesTypesAndSenders() {
    assertMacroExpansion(
      """
      @Feature
      public struct Metronome {
        public enum Action: Codable {
          /// Starts on beat 1
          case start, stop
          /// Beats per minute,
          /// 20 to 400
          case setTempo(bpm: Double)
          case setBeatsPerBar(Int)
          /// Says "hi" \\ loud
          case rename(_ name: String, _ loud: Bool)
          case notes([Int])
          @SentBy(.host) case beat(index: Int)
        }
      }
      """,
      expandedSource: """
        public struct Metronome {
          public enum Action: Codable {
            /// Starts on beat 1
            case start, stop
            /// Beats per minute,
            /// 20 to 400
            case setTempo(bpm: Double)
            case setBeatsPerBar(Int)
            /// Says "hi" \\ loud
            case rename(_ name: String, _ loud: Bool)
            case notes([Int])
            case beat(index: Int)
          }

            public static let actions: [ActionSchema] = [
              ActionSchema("start", fields: [], summary: "Starts on beat 1"),
              ActionSchema("stop", fields: [], summary: "Starts on beat 1"),
              ActionSchema("setTempo", fields: [("bpm", .of(Double.self))], summary: "Beats per minute, 20 to 400"),
              ActionSchema("setBeatsPerBar", fields: [("_0", .of(Int.self))]),
              ActionSchema("rename", fields: [("_0", .of(String.self)), ("_1", .of(Bool.self))], summary: "Says \\"hi\\" \\\\ loud"),
              ActionSchema("notes", fields: [("_0", .of([Int].self))]),
              ActionSchema("beat", fields: [("index", .of(Int.self))], sentBy: .host)
            ]

            public static var initialState: State {
                State()
            }
        }
        """,
      macroSpecs: macros
    )
  }

  func testAListWrittenBesideItIsRefused() {
    assertMacroExpansion(
      """
      @Feature
      struct Counter {
        static let actions: [ActionSchema] = ["increment"]
        enum Action: Codable {
          case increment, delayedIncrement
        }
      }
      """,
      expandedSource: """
        struct Counter {
          static let actions: [ActionSchema] = ["increment"]
          enum Action: Codable {
            case increment, delayedIncrement
          }
        }
        """,
      diagnostics: [
        DiagnosticSpec(
          message:
            "'@Feature' derives 'actions' from 'enum Action'; remove this list (a list written by hand can drift from the enum)",
          line: 3, column: 3)
      ],
      macroSpecs: macros
    )
  }

  func testAFeatureWithoutAnActionEnumIsTold() {
    assertMacroExpansion(
      """
      @Feature
      struct Empty {
        struct State: Codable {}
      }
      """,
      expandedSource: """
        struct Empty {
          struct State: Codable {}
        }
        """,
      diagnostics: [
        DiagnosticSpec(
          message: "'@Feature' needs the feature's actions as a nested 'enum Action: Codable'",
          line: 1, column: 1)
      ],
      macroSpecs: macros
    )
  }

  func testMigratesFollowsTheMigrateFunctionAndAWrittenStartIsKept() {
    assertMacroExpansion(
      """
      @Feature
      struct Counter {
        static var initialState: State { State(count: 1) }
        enum Action: Codable {
          case increment
        }
        static func migrate(from schemaVersion: UInt32, _ state: WireValue) throws -> WireValue {
          state
        }
      }
      """,
      expandedSource: """
        struct Counter {
          static var initialState: State { State(count: 1) }
          enum Action: Codable {
            case increment
          }
          static func migrate(from schemaVersion: UInt32, _ state: WireValue) throws -> WireValue {
            state
          }

            static let actions: [ActionSchema] = [
              ActionSchema("increment", fields: [])
            ]

            static let migrates = true
        }
        """,
      macroSpecs: macros
    )
  }

  /// The structs inside the feature that `T()` makes get their start values listed, for a
  /// field added to them; one with a property without a value, or a private one, does not.
  func testStructsThatStartWithoutArgumentsAreListedAsStateTemplates() {
    assertMacroExpansion(
      """
      @Feature
      struct Timer {
        struct Lap: Codable {
          var number = 0
          var note: String?
        }
        struct Goal: Codable {
          let target: Int
        }
        private struct Secret: Codable {
          var x = 0
        }
        struct State: Codable {
          var laps: [Lap] = []
          struct Clock: Codable {
            var ticks = 0
            init() {}
          }
        }
        enum Action: Codable {
          case lap
        }
      }
      """,
      expandedSource: """
        struct Timer {
          struct Lap: Codable {
            var number = 0
            var note: String?
          }
          struct Goal: Codable {
            let target: Int
          }
          private struct Secret: Codable {
            var x = 0
          }
          struct State: Codable {
            var laps: [Lap] = []
            struct Clock: Codable {
              var ticks = 0
              init() {}
            }
          }
          enum Action: Codable {
            case lap
          }

            static let actions: [ActionSchema] = [
              ActionSchema("lap", fields: [])
            ]

            static var initialState: State {
                State()
            }

            static let stateTemplates: [StateTemplate] = [
              StateTemplate(Lap.self) {
                  Lap()
              },
              StateTemplate(State.Clock.self) {
                  State.Clock()
              }
            ]
        }
        """,
      macroSpecs: macros
    )
  }

  func testAMigratesFlagWrittenBesideItIsRefused() {
    assertMacroExpansion(
      """
      @Feature
      struct Counter {
        static let migrates = true
        enum Action: Codable {
          case increment
        }
      }
      """,
      expandedSource: """
        struct Counter {
          static let migrates = true
          enum Action: Codable {
            case increment
          }

            static let actions: [ActionSchema] = [
              ActionSchema("increment", fields: [])
            ]

            static var initialState: State {
                State()
            }
        }
        """,
      diagnostics: [
        DiagnosticSpec(
          message:
            "'@Feature' sets 'migrates' when the feature implements 'static func migrate(from:_:)'; remove this flag",
          line: 3, column: 3)
      ],
      macroSpecs: macros
    )
  }

  func testAnActionThatIsNotCodableIsRefused() {
    assertMacroExpansion(
      """
      @Feature
      struct Counter {
        enum Action: Equatable {
          case increment
        }
      }
      """,
      expandedSource: """
        struct Counter {
          enum Action: Equatable {
            case increment
          }
        }
        """,
      diagnostics: [
        DiagnosticSpec(
          message:
            "'enum Action' must be 'Codable': the host sends actions to a plugin as encoded values; write 'enum Action: Codable'",
          line: 3, column: 8)
      ],
      macroSpecs: macros
    )
  }

  func testThePluginFeatureConformanceIsAddedWhenMissing() {
    assertMacroExpansion(
      """
      @Feature
      public struct Counter {
        public enum Action: Encodable & Decodable {
          case increment
        }
      }
      """,
      expandedSource: """
        public struct Counter {
          public enum Action: Encodable & Decodable {
            case increment
          }

            public static let actions: [ActionSchema] = [
              ActionSchema("increment", fields: [])
            ]

            public static var initialState: State {
                State()
            }
        }

        extension Counter: PluginFeature {
        }
        """,
      macroSpecs: ["Feature": MacroSpec(type: FeatureMacro.self, conformances: ["PluginFeature"])]
    )
  }
}
