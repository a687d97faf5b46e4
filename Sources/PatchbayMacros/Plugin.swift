import SwiftCompilerPlugin
import SwiftSyntaxMacros

/// The compiler plugin behind `@Reducer`, `@ObservableState`, `@Feature`, `@Export`, `@Import`,
/// `#plugin` and their helpers.
@main
struct PatchbayMacrosPlugin: CompilerPlugin {
  let providingMacros: [any Macro.Type] = [
    ReducerMacro.self,
    ObservableStateMacro.self,
    NoOpPeerMacro.self,
    FeatureMacro.self,
    ExportMacro.self,
    ImportMacro.self,
    PluginMacro.self,
    EmbeddedFeatureMacro.self,
    EmbeddedPluginMacro.self,
  ]
}
