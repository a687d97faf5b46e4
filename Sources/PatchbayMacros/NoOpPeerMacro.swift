import SwiftSyntax
import SwiftSyntaxMacros

/// A marker attribute: `@ReducerCaseIgnored`, `@ObservationStateIgnored`. It adds nothing;
/// `@Reducer` reads the marker where it matters.
public enum NoOpPeerMacro: PeerMacro {
  public static func expansion(
    of node: AttributeSyntax,
    providingPeersOf declaration: some DeclSyntaxProtocol,
    in context: some MacroExpansionContext
  ) throws -> [DeclSyntax] {
    []
  }
}
