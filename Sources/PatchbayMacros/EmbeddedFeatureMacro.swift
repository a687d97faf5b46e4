import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxBuilder
import SwiftSyntaxMacros

/// `@Feature` of the Embedded Swift SDK (`Sources/PatchbayWasmGuest/Swift/Feature.swift`).
/// Embedded Swift has no Codable, so this writes from the syntax what Codable gives the native
/// SDK: the state as a record of its stored properties, in order, read back by field name; each
/// action as a case with its labels (`_0`, `_1`, … for unlabelled fields). And, as the native
/// `@Feature` does, the action list with each case's doc comment and `@SentBy`.
public enum EmbeddedFeatureMacro: MemberMacro, ExtensionMacro {
  /// `extension Counter: Feature {}`, as the native `@Feature` writes its conformance.
  public static func expansion(
    of node: AttributeSyntax,
    attachedTo declaration: some DeclGroupSyntax,
    providingExtensionsOf type: some TypeSyntaxProtocol,
    conformingTo protocols: [TypeSyntax],
    in context: some MacroExpansionContext
  ) throws -> [ExtensionDeclSyntax] {
    try FeatureMacro.expansion(
      of: node, attachedTo: declaration, providingExtensionsOf: type, conformingTo: protocols,
      in: context)
  }

  public static func expansion(
    of node: AttributeSyntax,
    providingMembersOf declaration: some DeclGroupSyntax,
    conformingTo protocols: [TypeSyntax],
    in context: some MacroExpansionContext
  ) throws -> [DeclSyntax] {
    let members = declaration.memberBlock.members
    guard
      let action = members.lazy.compactMap({ $0.decl.as(EnumDeclSyntax.self) })
        .first(where: { $0.name.text == "Action" })
    else {
      context.diagnose(
        Diagnostic(
          node: node, message: FeatureDiagnostic("'@Feature' needs a nested 'enum Action'")))
      return []
    }
    guard
      let state = members.lazy.compactMap({ $0.decl.as(StructDeclSyntax.self) })
        .first(where: { $0.name.text == "State" })
    else {
      context.diagnose(
        Diagnostic(
          node: node,
          message: FeatureDiagnostic(
            "'@Feature' in Embedded Swift needs a nested 'struct State': it writes the state's "
              + "encoding from its stored properties")))
      return []
    }
    let access =
      declaration.modifiers.first { ["public", "package"].contains($0.name.text) }
      .map { "\($0.name.text) " } ?? ""
    let cases = Self.cases(of: action)
    guard let fields = Self.storedProperties(of: state, in: context) else { return [] }
    var generated: [DeclSyntax] = []
    if !members.contains(where: { FeatureMacro.declaresStatic("name", $0.decl) }),
      let named = declaration.as(StructDeclSyntax.self)
    {
      generated.append(
        "\(raw: access)static var name: StaticString { \(raw: FeatureMacro.literal(named.name.text)) }"
      )
    }
    if !members.contains(where: { FeatureMacro.declaresStatic("initialState", $0.decl) }) {
      generated.append("\(raw: access)static var initialState: State { State() }")
    }
    if members.contains(where: { FeatureMacro.implementsMigrate($0.decl) }) {
      generated.append("\(raw: access)static var migrates: Bool { true }")
    }
    let schemas = cases.map { item -> String in
      var arguments = [FeatureMacro.literal(item.name)]
      if !item.fields.isEmpty {
        let list = item.fields.map { "(\(FeatureMacro.literal($0.label)), \($0.type).wireType)" }
        arguments.append("fields: [\(list.joined(separator: ", "))]")
      }
      if !item.summary.isEmpty {
        arguments.append("summary: \(FeatureMacro.literal(item.summary))")
      }
      if let sender = item.sender { arguments.append("sentBy: \(sender)") }
      return "ActionSchema(\(arguments.joined(separator: ", ")))"
    }
    generated.append(
      """
      \(raw: access)static var actions: [ActionSchema] {
        [\(raw: schemas.joined(separator: ",\n"))]
      }
      """)
    let shared = Self.sharedFields(of: state)
    let writes = fields.map { field in
      let key = shared[field].map { ", \($0)" } ?? ""
      return "out.field(\(FeatureMacro.literal(field))\(key), state.\(field))"
    }
    generated.append(
      """
      \(raw: access)static func write(_ state: State, to out: inout WireWriter) {
        out.record(\(raw: fields.count))
        \(raw: writes.joined(separator: "\n"))
      }
      """)
    let reads = fields.map { field in
      let read = shared[field] == nil ? "read" : "readShared"
      return
        "case \(FeatureMacro.literal(field)): guard input.\(read)(into: &state.\(field)) else { return nil }"
    }
    generated.append(
      """
      \(raw: access)static func read(_ state: State, from input: inout WireReader) -> State? {
        var state = state
        guard let count = input.record() else { return nil }
        for _ in 0..<count {
          guard let name = input.label() else { return nil }
          switch name {
          \(raw: reads.joined(separator: "\n"))
          default: guard input.skip() else { return nil }
          }
        }
        return state
      }
      """)
    if !shared.isEmpty {
      let held = fields.compactMap { field in
        shared[field].map { "SharedHeld(\($0), get: { $0.\(field) }, set: { $0.\(field) = $1 })" }
      }
      generated.append(
        """
        \(raw: access)static var held: [SharedHeld<State>] {
          [\(raw: held.joined(separator: ",\n"))]
        }
        """)
    }
    generated.append(
      """
      \(raw: access)static func write(_ action: Action, to out: inout WireWriter) {
        switch action {
        \(raw: cases.map(Self.writeCase).joined(separator: "\n"))
        }
      }
      """)
    generated.append(
      """
      \(raw: access)static func read(action input: inout WireReader) -> Action? {
        guard let (name, count) = input.case() else { return nil }
        switch name {
        \(raw: cases.map(Self.readCase).joined(separator: "\n"))
        default: return nil
        }
      }
      """)
    return generated
  }

  struct Case {
    let name: String
    let fields: [(label: String, type: String, labelled: Bool)]
    let summary: String
    let sender: String?
  }

  static func cases(of action: EnumDeclSyntax) -> [Case] {
    action.memberBlock.members.compactMap { $0.decl.as(EnumCaseDeclSyntax.self) }.flatMap {
      declaration in
      declaration.elements.map { element in
        let fields = (element.parameterClause?.parameters ?? []).enumerated().map {
          index, parameter in
          let label = parameter.firstName.map { $0.text == "_" ? nil : $0.text } ?? nil
          return (
            label: label ?? "_\(index)", type: parameter.type.trimmedDescription,
            labelled: label != nil
          )
        }
        return Case(
          name: element.name.text, fields: fields,
          summary: FeatureMacro.summary(of: declaration),
          sender: FeatureMacro.sender(of: declaration))
      }
    }
  }

  /// `case .setStep(let f0): out.case("setStep", 1); out.field("by", f0)`
  static func writeCase(_ item: Case) -> String {
    let bindings = item.fields.indices.map { "let f\($0)" }.joined(separator: ", ")
    var line = "case .\(item.name)\(item.fields.isEmpty ? "" : "(\(bindings))"):"
    line += " out.case(\(FeatureMacro.literal(item.name)), \(item.fields.count))"
    for (index, field) in item.fields.enumerated() {
      line += "; out.field(\(FeatureMacro.literal(field.label)), f\(index))"
    }
    return line
  }

  /// `case "setStep":` then a loop over the case's fields: each known label read into its
  /// variable, others skipped, as Codable's keyed decoding does for the native build (labels in
  /// any order, an extra one ignored, a missing optional nil); then the action, or nil when a
  /// field is missing or of another type.
  static func readCase(_ item: Case) -> String {
    var lines = ["case \(FeatureMacro.literal(item.name)):"]
    for (index, field) in item.fields.enumerated() {
      lines.append("var f\(index): (\(field.type))? = nil")
    }
    var labels = item.fields.enumerated().map { index, field in
      "case \(FeatureMacro.literal(field.label)): "
        + "guard let value = input.value((\(field.type)).self) else { return nil }; f\(index) = value"
    }
    labels.append("default: guard input.skip() else { return nil }")
    lines.append(
      """
      for _ in 0..<count {
        guard let label = input.label() else { return nil }
        switch label {
        \(labels.joined(separator: "\n"))
        }
      }
      """)
    var arguments: [String] = []
    for (index, field) in item.fields.enumerated() {
      let optional = field.type.hasSuffix("?") || field.type.hasPrefix("Optional<")
      if !optional { lines.append("guard let f\(index) else { return nil }") }
      let value = optional ? "f\(index) ?? nil" : "f\(index)"
      arguments.append(field.labelled ? "\(field.label): \(value)" : value)
    }
    lines.append(
      "return .\(item.name)\(arguments.isEmpty ? "" : "(\(arguments.joined(separator: ", ")))")")
    return lines.joined(separator: "\n")
  }

  /// The names of `State`'s stored `var`s, in order; nil (diagnosed) for a stored `let`, which
  /// a state read after a swap could not set.
  /// The stored properties marked `@Shared(key)`, each with its key's expression:
  /// `@Shared(.inMemory("tally")) var tally: Int64 = 0` is `["tally": ".inMemory(\"tally\")"]`.
  static func sharedFields(of state: StructDeclSyntax) -> [String: String] {
    var fields: [String: String] = [:]
    for member in state.memberBlock.members {
      guard let variable = member.decl.as(VariableDeclSyntax.self),
        let key = variable.attributes.lazy.compactMap({ $0.as(AttributeSyntax.self) })
          .first(where: { $0.attributeName.trimmedDescription == "Shared" })?
          .arguments?.as(LabeledExprListSyntax.self)?.first?.expression.trimmedDescription
      else { continue }
      for binding in variable.bindings {
        if let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text {
          fields[name] = key
        }
      }
    }
    return fields
  }

  static func storedProperties(
    of state: StructDeclSyntax, in context: some MacroExpansionContext
  ) -> [String]? {
    var names: [String] = []
    for member in state.memberBlock.members {
      guard let variable = member.decl.as(VariableDeclSyntax.self),
        !variable.modifiers.contains(where: {
          [.keyword(.static), .keyword(.class)].contains($0.name.tokenKind)
        })
      else { continue }
      for binding in variable.bindings where binding.accessorBlock == nil {
        guard let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text else {
          continue
        }
        if variable.bindingSpecifier.tokenKind == .keyword(.let) {
          context.diagnose(
            Diagnostic(
              node: binding.pattern,
              message: FeatureDiagnostic(
                "'let \(name)': a state's stored properties are 'var', so that a state read "
                  + "back after a swap can set them")))
          return nil
        }
        names.append(name)
      }
    }
    return names
  }
}

/// `#plugin` of the Embedded Swift SDK: `patchbay_plugin_entry`, describing the features.
public enum EmbeddedPluginMacro: DeclarationMacro {
  public static func expansion(
    of node: some FreestandingMacroExpansionSyntax,
    in context: some MacroExpansionContext
  ) throws -> [DeclSyntax] {
    var arguments: [String] = []
    for argument in node.arguments {
      let label = argument.label?.text ?? ""
      if label == "features", let list = argument.expression.as(ArrayExprSyntax.self) {
        let features = list.elements.map { "PluginFeature(\($0.expression.trimmed))" }
        arguments.append("features: [\(features.joined(separator: ", "))]")
      } else {
        arguments.append("\(label): \(argument.expression.trimmed)")
      }
    }
    return [
      """
      @_cdecl("patchbay_plugin_entry")
      public func patchbay_plugin_entry(_ hostABIMajor: UInt16) -> UnsafeRawPointer {
        Plugin.describe(\(raw: arguments.joined(separator: ", ")))
      }
      """
    ]
  }
}
