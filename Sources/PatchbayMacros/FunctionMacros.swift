import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxBuilder
import SwiftSyntaxMacros

/// `@Export("cents", summary: …)` on a global function: the `ExportedFunction` that lists it,
/// with its signature string derived from its Swift types and its `@convention(c)` address
/// (see the declaration in `PatchbayPlugin/FunctionMacros.swift`).
public enum ExportMacro: PeerMacro {
  public static func expansion(
    of node: AttributeSyntax,
    providingPeersOf declaration: some DeclSyntaxProtocol,
    in context: some MacroExpansionContext
  ) throws -> [DeclSyntax] {
    guard let function = declaration.as(FunctionDeclSyntax.self) else {
      context.diagnose(
        Diagnostic(node: node, message: FeatureDiagnostic("'@Export' goes on a global function")))
      return []
    }
    let arguments = node.arguments?.as(LabeledExprListSyntax.self).map(Array.init) ?? []
    guard let name = arguments.first(where: { $0.label == nil })?.expression else {
      context.diagnose(
        Diagnostic(
          node: node,
          message: FeatureDiagnostic(
            "'@Export' needs the function's exported name: @Export(\"cents\")")))
      return []
    }
    let summary =
      arguments.first { $0.label?.text == "summary" }?.expression.trimmedDescription ?? "\"\""
    let parameters = function.signature.parameterClause.parameters.map {
      $0.type.trimmedDescription
    }
    let result = function.signature.returnClause?.type.trimmedDescription ?? "Void"
    let signature: String
    switch CSignature.of(parameters: parameters, result: result) {
    case .success(let text): signature = text
    case .failure(let unsupported):
      context.diagnose(
        Diagnostic(node: function.signature, message: FeatureDiagnostic(unsupported.message)))
      return []
    }
    let access =
      function.modifiers.first { ["public", "package"].contains($0.name.text) }
      .map { "\($0.name.text) " } ?? ""
    let functionName = function.name.text
    let cType = "@convention(c) (\(parameters.joined(separator: ", "))) -> \(result)"
    return [
      """
      \(raw: access)let _export_\(raw: functionName) = ExportedFunction(\(name.trimmed), "\(raw: signature)", summary: \(raw: summary)) {
        unsafeBitCast(\(raw: functionName) as \(raw: cType), to: UnsafeRawPointer.self)
      }
      """
    ]
  }
}

/// `@Import("dev.patchbay.theory-plugin", "note_frequency")` on a feature's `static var
/// noteFrequency: ((Int32, Double) -> Double)?`: a getter calling the resolved function (nil
/// when it was not resolved). `@Feature` lists it in `imports` with its signature.
public enum ImportMacro: AccessorMacro {
  public static func expansion(
    of node: AttributeSyntax,
    providingAccessorsOf declaration: some DeclSyntaxProtocol,
    in context: some MacroExpansionContext
  ) throws -> [AccessorDeclSyntax] {
    guard let variable = declaration.as(VariableDeclSyntax.self),
      let binding = variable.bindings.first,
      let function = binding.typeAnnotation.flatMap({ Self.functionType($0.type) })
    else {
      context.diagnose(
        Diagnostic(
          node: node,
          message: FeatureDiagnostic(
            "'@Import' goes on a 'static var name: ((Int32, Double) -> Double)?': the function's "
              + "Swift type, optional (nil when the provider does not resolve it)")))
      return []
    }
    guard let (_, name) = Self.providerAndName(node) else {
      context.diagnose(
        Diagnostic(
          node: node,
          message: FeatureDiagnostic(
            "'@Import' needs the provider and the name: @Import(\"dev.example.theory-plugin\", \"note_frequency\")"
          )))
      return []
    }
    let parameters = function.parameters.map { $0.type.trimmedDescription }
    let result = function.returnClause.type.trimmedDescription
    if case .failure(let unsupported) = CSignature.of(parameters: parameters, result: result) {
      context.diagnose(Diagnostic(node: function, message: FeatureDiagnostic(unsupported.message)))
      return []
    }
    let cType = "@convention(c) (\(parameters.joined(separator: ", "))) -> \(result)"
    // Declared `@convention(c)`: the pointer itself, as cheap as a call through it. Declared a
    // Swift function: a closure around it.
    let declaredC =
      binding.typeAnnotation.map { $0.type.trimmedDescription.contains("@convention(c)") } ?? false
    let call = "{ function(\((0..<parameters.count).map { "$\($0)" }.joined(separator: ", "))) }"
    return [
      """
      get {
        guard let pointer = ImportedFunctions.currentPointer(\(raw: name)) else {
          return nil
        }
        let function = unsafeBitCast(pointer, to: (\(raw: cType)).self)
        return \(raw: declaredC ? "function" : call)
      }
      """
    ]
  }

  /// The function type inside `((Int32) -> Double)?`.
  static func functionType(_ type: TypeSyntax) -> FunctionTypeSyntax? {
    if let function = type.as(FunctionTypeSyntax.self) { return function }
    if let optional = type.as(OptionalTypeSyntax.self) {
      return Self.functionType(optional.wrappedType)
    }
    if let tuple = type.as(TupleTypeSyntax.self), tuple.elements.count == 1,
      let only = tuple.elements.first
    {
      return Self.functionType(only.type)
    }
    if let attributed = type.as(AttributedTypeSyntax.self) {
      return Self.functionType(attributed.baseType)
    }
    return nil
  }

  /// The two literals of `@Import(provider, name)`, as written.
  static func providerAndName(_ node: AttributeSyntax) -> (String, String)? {
    guard let arguments = node.arguments?.as(LabeledExprListSyntax.self), arguments.count == 2
    else {
      return nil
    }
    let values = arguments.map { $0.expression.trimmedDescription }
    return (values[0], values[1])
  }
}
