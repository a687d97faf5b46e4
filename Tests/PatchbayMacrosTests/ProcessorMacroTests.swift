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

/// `@Feature` on an `AudioFeature`: the processor's events and parameter block, derived.
final class ProcessorMacroTests: XCTestCase {
  func testEventsComeFromProcessorCasesAndParametersFromTheState() {
    assertMacroExpansion(
      """
      @Feature
      struct Meter {
        enum Action: Codable {
          case start
          @SentBy(.processor) case beat(index: Int)
          @SentBy(.processor) case level(Double)
        }
        struct Parameters: BitwiseCopyable {
          var running: Bool
          var tempo: Double
          let channels = 2
          var beatLength: Double { 60 / tempo }
        }
        static var initialState: State { State() }
      }
      """,
      expandedSource: """
        struct Meter {
          enum Action: Codable {
            case start
            case beat(index: Int)
            case level(Double)
          }
          struct Parameters: BitwiseCopyable {
            var running: Bool
            var tempo: Double
            let channels = 2
            var beatLength: Double { 60 / tempo }
          }
          static var initialState: State { State() }

            static let actions: [ActionSchema] = [
              ActionSchema("start", fields: []),
              ActionSchema("beat", fields: [("index", .of(Int.self))], sentBy: .processor),
              ActionSchema("level", fields: [("_0", .of(Double.self))], sentBy: .processor)
            ]

            /// The action a processor event becomes (its kind names a `@SentBy(.processor)` case).
            static func action(for event: ProcessorEvent) -> Action? {
              switch event.kind {
              case 2421315013:
                  .beat(index: Int(truncatingIfNeeded: event.value))
              case 2610554845:
                  .level(Double(bitPattern: UInt64(bitPattern: event.value)))
              default:
                  nil
              }
            }

            /// The event the processor emits for a `@SentBy(.processor)` action, on the audio thread
            /// (it allocates nothing): `period.emit(Self.event(.beat(index: 3), at: frame))`. Another
            /// action gives kind 0, which the host drops.
            static func event(_ action: Action, at frame: Int) -> ProcessorEvent {
              switch action {
              case .beat(let value):
                  ProcessorEvent(frame: frame, kind: 2421315013, value: Int64(truncatingIfNeeded: value))
              case .level(let value):
                  ProcessorEvent(frame: frame, kind: 2610554845, value: Int64(bitPattern: value.bitPattern))
              default:
                  ProcessorEvent(frame: frame, kind: 0)
              }
            }

            /// The block the processor reads, made from the state's properties of the same names.
            static func parameters(for state: State) -> Parameters {
              Parameters(running: state.running, tempo: state.tempo)
            }
        }
        """,
      macroSpecs: macros)
  }

  func testAProcessorCaseThatCannotTravelAsAnEventIsRefused() {
    assertMacroExpansion(
      """
      @Feature
      struct Meter {
        enum Action: Codable {
          @SentBy(.processor) case note(name: String)
        }
        static var initialState: State { State() }
        static func parameters(for state: State) -> Parameters { Parameters() }
      }
      """,
      expandedSource: """
        struct Meter {
          enum Action: Codable {
            case note(name: String)
          }
          static var initialState: State { State() }
          static func parameters(for state: State) -> Parameters { Parameters() }

            static let actions: [ActionSchema] = [
              ActionSchema("note", fields: [("name", .of(String.self))], sentBy: .processor)
            ]
        }
        """,
      diagnostics: [
        DiagnosticSpec(
          message:
            "a processor event carries one integer, Double, Float or Bool; 'note' carries String: change its fields, or write 'static func action(for:)' yourself",
          line: 4, column: 30)
      ],
      macroSpecs: macros)
  }
}
