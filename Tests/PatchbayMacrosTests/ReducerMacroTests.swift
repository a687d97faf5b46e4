import PatchbayMacros
import SwiftSyntax
import SwiftSyntaxMacroExpansion
import SwiftSyntaxMacros
import SwiftSyntaxMacrosTestSupport
import XCTest

/// The macros as the compiler sees them: `conformances` are the protocols the type lacks.
private func macros(lacking conformances: [TypeSyntax] = ["Reducer", "CaseReducer"])
  -> [String: MacroSpec]
{
  [
    "Reducer": MacroSpec(type: ReducerMacro.self, conformances: conformances),
    "ObservableState": MacroSpec(type: ObservableStateMacro.self),
    "ReducerCaseIgnored": MacroSpec(type: NoOpPeerMacro.self),
  ]
}

final class ReducerMacroTests: XCTestCase {
  func testAStructGetsItsConformanceCasePathsAndBuilder() {
    assertMacroExpansion(
      """
      @Reducer
      struct Counter {
        struct State {}
        enum Action {
          case tap
        }
        var body: some ReducerOf<Self> { EmptyReducer() }
      }
      """,
      expandedSource: """
        struct Counter {
          struct State {}
          @CasePathable
          enum Action {
            case tap
          }
          @Patchbay.ReducerBuilder<Self.State, Self.Action>
          var body: some ReducerOf<Self> { EmptyReducer() }
        }

        extension Counter: Patchbay.Reducer {
        }
        """,
      macroSpecs: macros()
    )
  }

  func testAnExistingConformanceOrAttributeIsNotAddedTwice() {
    assertMacroExpansion(
      """
      @Reducer
      struct Counter: Reducer {
        @CasePathable enum Action {
          case tap
        }
        @ReducerBuilder<State, Action> var body: some ReducerOf<Self> { EmptyReducer() }
      }
      """,
      expandedSource: """
        struct Counter: Reducer {
          @CasePathable enum Action {
            case tap
          }
          @ReducerBuilder<State, Action> var body: some ReducerOf<Self> { EmptyReducer() }
        }
        """,
      macroSpecs: macros(lacking: [])
    )
  }

  func testAnEnumGetsStateActionAndABodyPerCase() {
    assertMacroExpansion(
      """
      @Reducer
      enum Destination {
        case add(AddItem)
        @ReducerCaseIgnored
        case alert(String)
        case done
      }
      """,
      expandedSource: """
        enum Destination {
          case add(AddItem)
          case alert(String)
          case done

            @CasePathable
            @dynamicMemberLookup
            enum State: Patchbay.CaseReducerState, Patchbay.ObservableState {
              typealias StateReducer = Destination
              case add(AddItem.State)
              case alert(String)
              case done
            }

            @CasePathable
            enum Action {
              case add(AddItem.Action)
              case alert(Swift.Never)
              case done(Swift.Never)
            }

            typealias Body = Patchbay.Reduce<Self.State, Self.Action>

            static var body: Patchbay.Reduce<Self.State, Self.Action> {
              Patchbay.Reduce(
                Patchbay.EmptyReducer<Self.State, Self.Action>()
                .ifCaseLet(\\Destination.State.AllCasePaths.add, action: \\Destination.Action.AllCasePaths.add) {
                    AddItem()
                }
              )
            }
        }

        extension Destination: Patchbay.CaseReducer, Patchbay.Reducer {
        }
        """,
      macroSpecs: macros()
    )
  }

  func testACaseWithTwoValuesIsAnErrorThatSaysWhatToWrite() {
    assertMacroExpansion(
      """
      @Reducer
      enum Destination {
        case edit(EditItem, Int)
      }
      """,
      expandedSource: """
        enum Destination {
          case edit(EditItem, Int)

            @CasePathable
            @dynamicMemberLookup
            enum State: Patchbay.CaseReducerState, Patchbay.ObservableState {
              typealias StateReducer = Destination

            }

            @CasePathable
            enum Action {

            }

            typealias Body = Patchbay.Reduce<Self.State, Self.Action>

            static var body: Patchbay.Reduce<Self.State, Self.Action> {
              Patchbay.Reduce(
                Patchbay.EmptyReducer<Self.State, Self.Action>()
              )
            }
        }

        extension Destination: Patchbay.CaseReducer, Patchbay.Reducer {
        }
        """,
      diagnostics: [
        DiagnosticSpec(
          message:
            "'@Reducer' enum case 'edit' must hold exactly one reducer, as in 'case edit(EditFeature)'",
          line: 3, column: 8
        )
      ],
      macroSpecs: macros()
    )
  }

  func testObservableStateOnlyAddsTheMarkerConformance() {
    assertMacroExpansion(
      """
      @ObservableState
      struct State {
        var count = 0
      }
      """,
      expandedSource: """
        struct State {
          var count = 0
        }

        extension State: Patchbay.ObservableState {
        }
        """,
      macroSpecs: macros()
    )
  }
}
