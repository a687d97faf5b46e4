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
          @SentBy(.processor) case beat(index: Int)
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
              ActionSchema("beat", fields: [("index", .of(Int.self))], sentBy: .processor)
            ]
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
}
