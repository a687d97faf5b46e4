import SwiftSyntax

extension FeatureMacro {
  /// `StateTemplate(State.Lap.self) { State.Lap() }` for each struct declared inside the
  /// feature (at any depth) that `T()` makes: every stored property has a value or is an
  /// optional `var`, and no initializer but `init()` is written. Its start value is what a
  /// field added to it takes when a snapshot of an earlier build is read: a field added to a
  /// collection's element included (docs/SWAP.md, "State across a swap"). `State` itself is
  /// left out: ``PluginFeature/initialState`` is its template.
  static func stateTemplates(in members: MemberBlockItemListSyntax) -> [String] {
    Self.structs(in: members, prefix: "").compactMap { name, declaration in
      guard name != "State", Self.isDefaultConstructible(declaration) else { return nil }
      return "StateTemplate(\(name).self) { \(name)() }"
    }
  }

  /// The structs declared in `members` and inside them, with their names as seen from the
  /// feature (`State.Lap`); private ones are left out (the feature's members cannot name them
  /// where they are public).
  private static func structs(in members: MemberBlockItemListSyntax, prefix: String)
    -> [(String, StructDeclSyntax)]
  {
    members.flatMap { member -> [(String, StructDeclSyntax)] in
      guard let declaration = member.decl.as(StructDeclSyntax.self),
        !declaration.modifiers.contains(where: {
          [.keyword(.private), .keyword(.fileprivate)].contains($0.name.tokenKind)
        })
      else { return [] }
      let name = prefix + declaration.name.text
      return [(name, declaration)]
        + Self.structs(in: declaration.memberBlock.members, prefix: name + ".")
    }
  }

  private static func isDefaultConstructible(_ declaration: StructDeclSyntax) -> Bool {
    let members = declaration.memberBlock.members.map(\.decl)
    let initializers = members.compactMap { $0.as(InitializerDeclSyntax.self) }
    if !initializers.isEmpty {
      return initializers.contains { $0.signature.parameterClause.parameters.isEmpty }
    }
    return members.compactMap { $0.as(VariableDeclSyntax.self) }.allSatisfy { variable in
      if variable.modifiers.contains(where: { $0.name.tokenKind == .keyword(.static) }) {
        return true
      }
      let isVar = variable.bindingSpecifier.tokenKind == .keyword(.var)
      return variable.bindings.allSatisfy { binding in
        if binding.accessorBlock != nil || binding.initializer != nil { return true }
        guard isVar, let type = binding.typeAnnotation?.type else { return false }
        return type.is(OptionalTypeSyntax.self)
          || type.is(ImplicitlyUnwrappedOptionalTypeSyntax.self)
      }
    }
  }
}
