import PatchbayMacros
import SwiftSyntax
import SwiftSyntaxMacroExpansion
import SwiftSyntaxMacros
import SwiftSyntaxMacrosTestSupport
import XCTest

private let macros: [String: MacroSpec] = ["plugin": MacroSpec(type: PluginMacro.self)]

/// `#plugin`: the entry point written for you, and what it refuses.
final class PluginMacroTests: XCTestCase {
  func testTheEntryExportsTheFeaturesAndTheExportedFunctions() {
    assertMacroExpansion(
      """
      #plugin(
        id: "dev.patchbay.tuner-plugin", name: "Tuner", version: "1.0.0",
        features: [Tuner.self, .feature(Pitch.self, id: "dev.patchbay.pitch")],
        functions: [tunerCents, noteName])
      """,
      expandedSource: """
        /// The plugin library's one exported function (patchbay/plugin.h), made by `#plugin`.
        @_cdecl("patchbay_plugin_entry")
        public func patchbay_plugin_entry(_ hostABIMajor: UInt16) -> UnsafeRawPointer? {
          PluginExport.entry(id: "dev.patchbay.tuner-plugin", name: "Tuner", version: "1.0.0", features: [.feature(Tuner.self), .feature(Pitch.self, id: "dev.patchbay.pitch")], functions: [_export_tunerCents, _export_noteName], hostABIMajor: hostABIMajor)
        }
        """,
      macroSpecs: macros)
  }

  func testAFunctionListedTwiceIsRefused() {
    assertMacroExpansion(
      """
      #plugin(
        id: "dev.patchbay.tuner-plugin", name: "Tuner", version: "1.0.0",
        features: [.feature(Tuner.self)], functions: [tunerCents, tunerCents])
      """,
      expandedSource: "",
      diagnostics: [
        DiagnosticSpec(
          message: "'tunerCents' is listed twice in 'functions:'; a plugin exports each once",
          line: 3, column: 61)
      ],
      macroSpecs: macros)
  }

  func testAnEmptyIdAndAFunctionThatIsNotANameAreRefused() {
    assertMacroExpansion(
      """
      #plugin(
        id: "", name: "Tuner", version: "1.0.0",
        features: [.feature(Tuner.self), .feature(Tuner.self)], functions: [{ 1 }])
      """,
      expandedSource: "",
      diagnostics: [
        DiagnosticSpec(message: "'#plugin' needs a non-empty id", line: 2, column: 7),
        DiagnosticSpec(
          message:
            "'.feature(Tuner.self)' is listed twice in 'features:'; a plugin exports each once",
          line: 3, column: 36),
        DiagnosticSpec(
          message:
            "'functions:' lists global functions marked '@Export' by name, as '[tunerCents]'; '{ 1 }' is not one",
          line: 3, column: 71),
      ],
      macroSpecs: macros)
  }
}
