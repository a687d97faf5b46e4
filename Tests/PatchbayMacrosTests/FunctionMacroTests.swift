import PatchbayMacros
import SwiftSyntax
import SwiftSyntaxMacroExpansion
import SwiftSyntaxMacros
import SwiftSyntaxMacrosTestSupport
import XCTest

private let macros: [String: MacroSpec] = [
  "Feature": MacroSpec(type: FeatureMacro.self),
  "Export": MacroSpec(type: ExportMacro.self),
  "Import": MacroSpec(type: ImportMacro.self),
]

/// `@Export` and `@Import`: signatures from Swift types, no cast written by hand.
final class FunctionMacroTests: XCTestCase {
  func testAnExportGetsItsSignatureAndItsCAddress() {
    assertMacroExpansion(
      """
      @Export("cents", summary: "Cents from a reference")
      public func tunerCents(_ frequency: Double, _ reference: Double) -> Double { 0 }
      """,
      expandedSource: """
        public func tunerCents(_ frequency: Double, _ reference: Double) -> Double { 0 }

        public let _export_tunerCents = ExportedFunction("cents", "double(double, double)", summary: "Cents from a reference") {
          unsafeBitCast(tunerCents as @convention(c) (Double, Double) -> Double, to: UnsafeRawPointer.self)
        }
        """,
      macroSpecs: macros)
  }

  func testAnExportOfATypeCCannotTakeIsRefused() {
    assertMacroExpansion(
      """
      @Export("greet")
      func greet(_ name: String) -> Int32 { 0 }
      """,
      expandedSource: """
        func greet(_ name: String) -> Int32 { 0 }
        """,
      diagnostics: [
        DiagnosticSpec(
          message:
            "'String' cannot cross the C ABI: use Int32, Int64, Double, Float, Bool, a pointer, or (UnsafeMutablePointer<CChar>?, Int) for an out_string",
          line: 2, column: 11)
      ],
      macroSpecs: macros)
  }

  func testAnImportIsTypedAndListedWithItsSignature() {
    assertMacroExpansion(
      """
      @Feature
      struct Tuner {
        enum Action: Codable {
          case tune
        }
        @Import("dev.patchbay.theory-plugin", "note_name")
        static var noteName: ((Int32, UnsafeMutablePointer<CChar>?, Int) -> Int32)?
      }
      """,
      expandedSource: """
        struct Tuner {
          enum Action: Codable {
            case tune
          }
          static var noteName: ((Int32, UnsafeMutablePointer<CChar>?, Int) -> Int32)? {
              get {
                guard let pointer = ImportedFunctions.currentPointer("note_name") else {
                  return nil
                }
                let function = unsafeBitCast(pointer, to: (@convention(c) (Int32, UnsafeMutablePointer<CChar>?, Int) -> Int32).self)
                return {
                    function($0, $1, $2)
                }
              }
          }

            static let actions: [ActionSchema] = [
              ActionSchema("tune", fields: [])
            ]

            static var initialState: State {
                State()
            }

            static let imports: [FunctionImport] = [
              FunctionImport("dev.patchbay.theory-plugin", "note_name", "int32(int32, out_string)")
            ]
        }
        """,
      macroSpecs: macros)
  }
}
