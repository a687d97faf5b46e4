import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxBuilder
import SwiftSyntaxMacros

/// `#plugin(id:name:version:features:functions:)`: the plugin library's one exported function,
/// `patchbay_plugin_entry` (see the declaration in `PatchbayPlugin/PluginMacro.swift`).
///
/// Checks what it can see: a literal id, name or version that is empty, and a function or
/// feature listed twice.
public enum PluginMacro: DeclarationMacro {
  public static func expansion(
    of node: some FreestandingMacroExpansionSyntax,
    in context: some MacroExpansionContext
  ) throws -> [DeclSyntax] {
    var problems = false
    for argument in node.arguments {
      let label = argument.label?.text ?? ""
      if ["id", "name", "version"].contains(label),
        let literal = argument.expression.as(StringLiteralExprSyntax.self),
        literal.segments.trimmedDescription.allSatisfy({ $0 == " " })
      {
        context.diagnose(
          Diagnostic(
            node: argument.expression,
            message: PluginDiagnostic("'#plugin' needs a non-empty \(label)")))
        problems = true
      }
      if ["features", "functions"].contains(label),
        let list = argument.expression.as(ArrayExprSyntax.self)
      {
        var seen: Set<String> = []
        for element in list.elements {
          let text = element.expression.trimmedDescription
          if !seen.insert(text).inserted {
            context.diagnose(
              Diagnostic(
                node: element.expression,
                message: PluginDiagnostic(
                  "'\(text)' is listed twice in '\(label):'; a plugin exports each once")))
            problems = true
          }
        }
      }
    }
    var arguments: [String] = []
    for argument in node.arguments {
      let label = argument.label?.text ?? ""
      if label == "features", let list = argument.expression.as(ArrayExprSyntax.self) {
        // `Counter.self` → `.feature(Counter.self)`, the driver that exports it.
        let drivers = list.elements.map { element in
          let expression = element.expression
          let isType = expression.as(MemberAccessExprSyntax.self)?.declName.baseName.text == "self"
          return isType ? ".feature(\(expression.trimmed))" : expression.trimmedDescription
        }
        arguments.append("features: [\(drivers.joined(separator: ", "))]")
        continue
      }
      guard label == "functions", let list = argument.expression.as(ArrayExprSyntax.self) else {
        arguments.append("\(label.isEmpty ? "" : "\(label): ")\(argument.expression.trimmed)")
        continue
      }
      // `tunerCents` → `_export_tunerCents`, the value `@Export` made. (Macro arguments cannot
      // name what another macro made at file scope; the entry's body can.)
      var exports: [String] = []
      for element in list.elements {
        guard let function = element.expression.as(DeclReferenceExprSyntax.self) else {
          context.diagnose(
            Diagnostic(
              node: element.expression,
              message: PluginDiagnostic(
                "'functions:' lists global functions marked '@Export' by name, as "
                  + "'[tunerCents]'; '\(element.expression.trimmed)' is not one")))
          problems = true
          continue
        }
        exports.append("_export_\(function.baseName.text)")
      }
      arguments.append("functions: [\(exports.joined(separator: ", "))]")
    }
    if problems { return [] }
    return [
      """
      /// The plugin library's one exported function (patchbay/plugin.h), made by `#plugin`.
      @_cdecl("patchbay_plugin_entry")
      public func patchbay_plugin_entry(_ hostABIMajor: UInt16) -> UnsafeRawPointer? {
        PluginExport.entry(\(raw: arguments.joined(separator: ", ")), hostABIMajor: hostABIMajor)
      }
      """
    ]
  }
}

struct PluginDiagnostic: DiagnosticMessage {
  let message: String
  init(_ message: String) { self.message = message }
  var diagnosticID: MessageID { MessageID(domain: "PatchbayMacros", id: "plugin") }
  var severity: DiagnosticSeverity { .error }
}
