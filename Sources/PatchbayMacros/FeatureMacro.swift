import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxBuilder
import SwiftSyntaxMacros

/// `@Feature`: see its declaration in `PatchbayPlugin/FeatureMacro.swift`. Writes the feature's
/// `actions` from its `enum Action`: each case's name, its fields (labels, or `_0`, `_1`, … as
/// the value encoding names unlabeled ones) with their types, the doc comment above it as the
/// summary, and `@SentBy(…)` as who sends it.
public enum FeatureMacro: MemberMacro, ExtensionMacro {
  /// `extension Counter: PluginFeature {}` unless it conforms already (`AudioFeature` does).
  public static func expansion(
    of node: AttributeSyntax,
    attachedTo declaration: some DeclGroupSyntax,
    providingExtensionsOf type: some TypeSyntaxProtocol,
    conformingTo protocols: [TypeSyntax],
    in context: some MacroExpansionContext
  ) throws -> [ExtensionDeclSyntax] {
    guard !protocols.isEmpty else { return [] }
    let list = protocols.map(\.trimmedDescription).joined(separator: ", ")
    return [try ExtensionDeclSyntax("extension \(type.trimmed): \(raw: list) {}")]
  }

  public static func expansion(
    of node: AttributeSyntax,
    providingMembersOf declaration: some DeclGroupSyntax,
    conformingTo protocols: [TypeSyntax],
    in context: some MacroExpansionContext
  ) throws -> [DeclSyntax] {
    let members = declaration.memberBlock.members
    if let written = members.first(where: { Self.declaresStatic("actions", $0.decl) }) {
      context.diagnose(
        Diagnostic(
          node: written.decl,
          message: FeatureDiagnostic(
            "'@Feature' derives 'actions' from 'enum Action'; remove this list (a list written "
              + "by hand can drift from the enum)")))
      return []
    }
    guard
      let action = members.lazy.compactMap({ $0.decl.as(EnumDeclSyntax.self) })
        .first(where: { $0.name.text == "Action" })
    else {
      context.diagnose(
        Diagnostic(
          node: node,
          message: FeatureDiagnostic(
            "'@Feature' needs the feature's actions as a nested 'enum Action: Codable'")))
      return []
    }
    if !Self.isCodable(action) {
      context.diagnose(
        Diagnostic(
          node: action.name,
          message: FeatureDiagnostic(
            "'enum Action' must be 'Codable': the host sends actions to a plugin as encoded "
              + "values; write 'enum Action: Codable'")))
      return []
    }
    var schemas: [String] = []
    for member in action.memberBlock.members {
      guard let caseDecl = member.decl.as(EnumCaseDeclSyntax.self) else { continue }
      let summary = Self.summary(of: caseDecl)
      let sender = Self.sender(of: caseDecl)
      for element in caseDecl.elements {
        var fields: [String] = []
        for (index, parameter) in (element.parameterClause?.parameters ?? []).enumerated() {
          let label =
            parameter.firstName.map { $0.text == "_" ? "_\(index)" : $0.text } ?? "_\(index)"
          fields.append("(\(Self.literal(label)), .of(\(parameter.type.trimmedDescription).self))")
        }
        var arguments = [
          "\(Self.literal(element.name.text))", "fields: [\(fields.joined(separator: ", "))]",
        ]
        if !summary.isEmpty { arguments.append("summary: \(Self.literal(summary))") }
        if let sender { arguments.append("sentBy: \(sender)") }
        schemas.append("ActionSchema(\(arguments.joined(separator: ", ")))")
      }
    }
    let access =
      declaration.modifiers.first { ["public", "package"].contains($0.name.text) }
      .map { "\($0.name.text) " } ?? ""
    var generated: [DeclSyntax] = [
      """
      \(raw: access)static let actions: [ActionSchema] = [
        \(raw: schemas.joined(separator: ",\n"))
      ]
      """
    ]
    if let flag = members.first(where: { Self.declaresStatic("migrates", $0.decl) }) {
      context.diagnose(
        Diagnostic(
          node: flag.decl,
          message: FeatureDiagnostic(
            "'@Feature' sets 'migrates' when the feature implements 'static func migrate(from:_:)'; "
              + "remove this flag")))
    } else if members.contains(where: { Self.implementsMigrate($0.decl) }) {
      generated.append("\(raw: access)static let migrates = true")
    }
    if !members.contains(where: { Self.declaresStatic("initialState", $0.decl) }) {
      generated.append("\(raw: access)static var initialState: State { State() }")
    }
    let templates = Self.stateTemplates(in: members)
    if !templates.isEmpty,
      !members.contains(where: { Self.declaresStatic("stateTemplates", $0.decl) })
    {
      generated.append(
        """
        \(raw: access)static let stateTemplates: [StateTemplate] = [
          \(raw: templates.joined(separator: ",\n"))
        ]
        """)
    }
    generated += Self.processorMembers(
      action: action, members: members, access: access, in: context)
    let imports = Self.imports(in: members)
    if !imports.isEmpty {
      generated.append(
        """
        \(raw: access)static let imports: [FunctionImport] = [
          \(raw: imports.joined(separator: ",\n"))
        ]
        """)
    }
    return generated
  }

  /// `FunctionImport(provider, name, "double(int32, double)")` for each `@Import` variable.
  private static func imports(in members: MemberBlockItemListSyntax) -> [String] {
    members.compactMap { member -> String? in
      guard let variable = member.decl.as(VariableDeclSyntax.self),
        let attribute = variable.attributes.lazy.compactMap({ $0.as(AttributeSyntax.self) })
          .first(where: { $0.attributeName.trimmedDescription == "Import" }),
        let (provider, name) = ImportMacro.providerAndName(attribute),
        let function = variable.bindings.first?.typeAnnotation.flatMap({
          ImportMacro.functionType($0.type)
        }),
        case .success(let signature) = CSignature.of(
          parameters: function.parameters.map { $0.type.trimmedDescription },
          result: function.returnClause.type.trimmedDescription)
      else { return nil }
      return "FunctionImport(\(provider), \(name), \"\(signature)\")"
    }
  }

  /// Whether the enum says it is `Codable` (or `Encodable & Decodable`) where it is declared.
  private static func isCodable(_ action: EnumDeclSyntax) -> Bool {
    let names = Set(
      (action.inheritanceClause?.inheritedTypes ?? []).flatMap { inherited in
        inherited.type.trimmedDescription.split(separator: "&").map { $0.filter { $0 != " " } }
      })
    return names.contains("Codable") || names.contains("Swift.Codable")
      || (names.contains("Encodable") && names.contains("Decodable"))
  }

  /// `static let actions …` or `static var actions …` (any access).
  static func declaresStatic(_ name: String, _ decl: DeclSyntax) -> Bool {
    guard let variable = decl.as(VariableDeclSyntax.self),
      variable.modifiers.contains(where: { $0.name.tokenKind == .keyword(.static) })
    else { return false }
    return variable.bindings.contains { $0.pattern.trimmedDescription == name }
  }

  /// `static func migrate(from:_:)`, the member whose presence means the feature migrates.
  static func implementsMigrate(_ decl: DeclSyntax) -> Bool {
    guard let function = decl.as(FunctionDeclSyntax.self), function.name.text == "migrate",
      function.modifiers.contains(where: { $0.name.tokenKind == .keyword(.static) })
    else { return false }
    return function.signature.parameterClause.parameters.first?.firstName.text == "from"
  }

  /// The `///` lines above a case, as one line.
  static func summary(of caseDecl: EnumCaseDeclSyntax) -> String {
    caseDecl.leadingTrivia.compactMap { piece -> String? in
      guard case .docLineComment(let text) = piece else { return nil }
      var line = text.dropFirst(3)
      while line.first == " " { line = line.dropFirst() }
      while line.last == " " { line = line.dropLast() }
      return String(line)
    }.joined(separator: " ")
  }

  /// `.processor` from `@SentBy(.processor)`.
  static func sender(of caseDecl: EnumCaseDeclSyntax) -> String? {
    for attribute in caseDecl.attributes {
      guard let attribute = attribute.as(AttributeSyntax.self),
        attribute.attributeName.trimmedDescription == "SentBy",
        let argument = attribute.arguments?.as(LabeledExprListSyntax.self)?.first
      else { continue }
      return argument.expression.trimmedDescription
    }
    return nil
  }

  static func literal(_ text: String) -> String {
    var escaped = "\""
    for character in text {
      switch character {
      case "\\": escaped += "\\\\"
      case "\"": escaped += "\\\""
      default: escaped.append(character)
      }
    }
    return escaped + "\""
  }

}

struct FeatureDiagnostic: DiagnosticMessage {
  let message: String
  init(_ message: String) { self.message = message }
  var diagnosticID: MessageID { MessageID(domain: "PatchbayMacros", id: "Feature") }
  var severity: DiagnosticSeverity { .error }
}
