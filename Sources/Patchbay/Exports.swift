// `import Patchbay` is TCA's `import ComposableArchitecture`: the core, composition,
// navigation and shared state, and the libraries a feature's code names (case paths,
// dependencies, clocks, custom dump, identified collections).
@_exported import CasePaths
@_exported import Clocks
@_exported import ConcurrencyExtras
@_exported import CustomDump
@_exported import Dependencies
@_exported import DependenciesMacros
@_exported import IdentifiedCollections
@_exported import PatchbayComposition
@_exported import PatchbayCore
@_exported import PatchbayNavigation
@_exported import PatchbaySharing
