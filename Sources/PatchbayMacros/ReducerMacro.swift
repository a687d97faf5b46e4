import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxBuilder
import SwiftSyntaxMacros

/// `@Reducer`: see the macro's declaration in `PatchbayCore/Macros/ReducerMacro.swift`.
public enum ReducerMacro {}

extension ReducerMacro: ExtensionMacro {
  public static func expansion(
    of node: AttributeSyntax,
    attachedTo declaration: some DeclGroupSyntax,
    providingExtensionsOf type: some TypeSyntaxProtocol,
    conformingTo protocols: [TypeSyntax],
    in context: some MacroExpansionContext
  ) throws -> [ExtensionDeclSyntax] {
    // `protocols` lists the conformances the type does not have yet (a `PluginFeature`, which
    // refines `Reducer`, needs none).
    let missing = protocols.map(\.trimmedDescription)
    var conformances: [String] = []
    if declaration.is(EnumDeclSyntax.self), missing.contains(where: { $0.hasSuffix("CaseReducer") })
    {
      conformances.append("Patchbay.CaseReducer")
    }
    if missing.contains(where: { $0 == "Reducer" || $0.hasSuffix(".Reducer") }) {
      conformances.append("Patchbay.Reducer")
    }
    guard !conformances.isEmpty else { return [] }
    return [
      try ExtensionDeclSyntax(
        "extension \(type.trimmed): \(raw: conformances.joined(separator: ", ")) {}"
      )
    ]
  }
}

extension ReducerMacro: MemberAttributeMacro {
  public static func expansion(
    of node: AttributeSyntax,
    attachedTo declaration: some DeclGroupSyntax,
    providingAttributesFor member: some DeclSyntaxProtocol,
    in context: some MacroExpansionContext
  ) throws -> [AttributeSyntax] {
    if let nested = member.as(EnumDeclSyntax.self) {
      switch nested.name.text {
      case "Action":
        return nested.attributes.contains(named: "CasePathable") ? [] : ["@CasePathable"]
      case "State":
        var attributes: [AttributeSyntax] = []
        if !nested.attributes.contains(named: "CasePathable") { attributes.append("@CasePathable") }
        if !nested.attributes.contains(named: "dynamicMemberLookup") {
          attributes.append("@dynamicMemberLookup")
        }
        return attributes
      default:
        return []
      }
    }
    if declaration.is(StructDeclSyntax.self),
      let property = member.as(VariableDeclSyntax.self),
      !property.modifiers.contains(where: { $0.name.tokenKind == .keyword(.static) }),
      property.bindings.count == 1,
      property.bindings.first?.pattern.trimmedDescription == "body",
      property.bindings.first?.accessorBlock != nil,
      !property.attributes.contains(named: "ReducerBuilder")
    {
      return ["@Patchbay.ReducerBuilder<Self.State, Self.Action>"]
    }
    return []
  }
}

extension ReducerMacro: MemberMacro {
  public static func expansion(
    of node: AttributeSyntax,
    providingMembersOf declaration: some DeclGroupSyntax,
    conformingTo protocols: [TypeSyntax],
    in context: some MacroExpansionContext
  ) throws -> [DeclSyntax] {
    guard let enumDecl = declaration.as(EnumDeclSyntax.self) else { return [] }
    let name = enumDecl.name.trimmedDescription
    let access =
      enumDecl.modifiers.first {
        ["public", "package", "internal", "fileprivate", "private"].contains($0.name.text)
      }.map { $0.name.text == "private" ? "fileprivate " : "\($0.name.text) " } ?? ""

    var stateCases: [String] = []
    var actionCases: [String] = []
    var scopes: [String] = []
    for member in enumDecl.memberBlock.members {
      guard let caseDecl = member.decl.as(EnumCaseDeclSyntax.self) else { continue }
      let stateOnly =
        caseDecl.attributes.contains(named: "ReducerCaseIgnored")
        || caseDecl.attributes.contains(named: "ReducerCaseEphemeral")
      for element in caseDecl.elements {
        let caseName = element.name.text
        guard let parameters = element.parameterClause?.parameters else {
          stateCases.append("case \(caseName)")
          actionCases.append("case \(caseName)(Swift.Never)")
          continue
        }
        guard parameters.count == 1, let parameter = parameters.first else {
          context.diagnose(
            Diagnostic(
              node: element,
              message: ReducerDiagnostic(
                """
                '@Reducer' enum case '\(caseName)' must hold exactly one reducer, as in \
                'case \(caseName)(\(caseName.prefix(1).uppercased() + caseName.dropFirst())Feature)'
                """
              )
            )
          )
          continue
        }
        let type = parameter.type.trimmedDescription
        if stateOnly {
          stateCases.append("case \(caseName)(\(type))")
          actionCases.append("case \(caseName)(Swift.Never)")
        } else {
          stateCases.append("case \(caseName)(\(type).State)")
          actionCases.append("case \(caseName)(\(type).Action)")
          scopes.append(
            """
            .ifCaseLet(\\\(name).State.AllCasePaths.\(caseName), \
            action: \\\(name).Action.AllCasePaths.\(caseName)) { \(type)() }
            """
          )
        }
      }
    }

    let (stateConformances, actionConformances) = synthesizedConformances(node)
    let body =
      scopes.isEmpty
      ? "Patchbay.EmptyReducer<Self.State, Self.Action>()"
      : "Patchbay.EmptyReducer<Self.State, Self.Action>()\n"
        + scopes.joined(separator: "\n")
    return [
      """
      @CasePathable
      @dynamicMemberLookup
      \(raw: access)enum State: Patchbay.CaseReducerState, Patchbay.ObservableState\
      \(raw: stateConformances.map { ", \($0)" }.joined()) {
        \(raw: access)typealias StateReducer = \(raw: name)
        \(raw: stateCases.joined(separator: "\n"))
      }
      """,
      """
      @CasePathable
      \(raw: access)enum Action\(raw: actionConformances.isEmpty ? "" : ": " + actionConformances.joined(separator: ", ")) {
        \(raw: actionCases.joined(separator: "\n"))
      }
      """,
      // A nameable body type: associated type inference cannot see through an opaque one
      // whose conformance is being added by this same macro.
      """
      \(raw: access)typealias Body = Patchbay.Reduce<Self.State, Self.Action>
      """,
      """
      \(raw: access)static var body: Patchbay.Reduce<Self.State, Self.Action> {
        Patchbay.Reduce(
          \(raw: body)
        )
      }
      """,
    ]
  }

  /// The conformances `@Reducer(state: .equatable, action: .sendable)` asks for.
  private static func synthesizedConformances(_ node: AttributeSyntax) -> ([String], [String]) {
    guard let arguments = node.arguments?.as(LabeledExprListSyntax.self) else { return ([], []) }
    var state: [String] = []
    var action: [String] = []
    var label = ""
    for argument in arguments {
      if let name = argument.label?.text { label = name }
      let member = argument.expression.trimmedDescription.split(separator: ".").last ?? ""
      let conformance: String
      switch member {
      case "codable": conformance = "Swift.Codable"
      case "decodable": conformance = "Swift.Decodable"
      case "encodable": conformance = "Swift.Encodable"
      case "equatable": conformance = "Swift.Equatable"
      case "hashable": conformance = "Swift.Hashable"
      case "sendable": conformance = "Swift.Sendable"
      default: continue
      }
      if label == "state" { state.append(conformance) } else { action.append(conformance) }
    }
    return (state, action)
  }
}

struct ReducerDiagnostic: DiagnosticMessage {
  let message: String
  init(_ message: String) { self.message = message }
  var diagnosticID: MessageID { MessageID(domain: "PatchbayMacros", id: "Reducer") }
  var severity: DiagnosticSeverity { .error }
}
