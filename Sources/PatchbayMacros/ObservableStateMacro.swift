import SwiftSyntax
import SwiftSyntaxMacros

/// `@ObservableState`: adds the `ObservableState` marker conformance, nothing else.
public enum ObservableStateMacro: ExtensionMacro {
  public static func expansion(
    of node: AttributeSyntax,
    attachedTo declaration: some DeclGroupSyntax,
    providingExtensionsOf type: some TypeSyntaxProtocol,
    conformingTo protocols: [TypeSyntax],
    in context: some MacroExpansionContext
  ) throws -> [ExtensionDeclSyntax] {
    if declaration.inherits(from: "ObservableState") { return [] }
    return [try ExtensionDeclSyntax("extension \(type.trimmed): Patchbay.ObservableState {}")]
  }
}

extension DeclGroupSyntax {
  /// Whether the declaration's own inheritance clause names `name` (bare or module-qualified).
  func inherits(from name: String) -> Bool {
    self.inheritanceClause?.inheritedTypes.contains { inherited in
      let written = inherited.type.trimmedDescription
      return written == name || written.hasSuffix(".\(name)")
    } ?? false
  }
}

extension AttributeListSyntax {
  /// Whether an attribute named `name` (bare or module-qualified) is present.
  func contains(named name: String) -> Bool {
    self.contains { element in
      guard case .attribute(let attribute) = element else { return false }
      let written = attribute.attributeName.trimmedDescription
      let base = written.split(separator: "<").first.map(String.init) ?? written
      return base == name || base.hasSuffix(".\(name)")
    }
  }
}
