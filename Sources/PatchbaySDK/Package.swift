// swift-tools-version: 6.2
// The Patchbay SDK: the core (reducers, effects, stores), the plugin ABI, the value encoding,
// the plugin exporter and the test store, as one shared library.
//
// Every Swift plugin links `libPatchbaySDK.so` instead of carrying its own copy of these and
// of their dependencies (swift-dependencies, OpenCombine, …). A plugin is then its own code:
// it relinks in a fraction of a second and the host maps the SDK once, however many plugins
// it loads.
//
// It is a package of its own because SwiftPM links a target's dependencies into each product
// statically, unless the dependency is a dynamic library product of another package. The
// folders here are links to `Sources/<Target>`, so the sources stay where the rest of the
// project is, and the root package (host, plugins, tests) depends on this one by path.
//
// A plugin package depends on it by path, and its name does not depend on the checkout's:
//
// ```swift
// dependencies: [.package(path: "../patchbay/Sources/PatchbaySDK")],
// targets: [
//   .target(name: "Hello", dependencies: [.product(name: "PatchbaySDK", package: "PatchbaySDK")])
// ]
// ```
import CompilerPluginSupport
import PackageDescription

let package = Package(
  name: "PatchbaySDK",
  platforms: [.macOS(.v15)],
  products: [
    // For plugins, and for tests of a plugin's features: one shared library.
    .library(
      name: "PatchbaySDK", type: .dynamic,
      targets: [
        "Patchbay", "PatchbayCore", "PatchbayComposition", "PatchbayNavigation", "PatchbaySharing",
        "PatchbayABI", "PatchbayEncoding", "PatchbayPlugin", "PatchbayTesting",
      ]
    ),
    // Beside `PatchbaySDK` in a test target: routes failed assertions to the test framework.
    .library(name: "PatchbayTestReporting", targets: ["PatchbayTestReporting"]),
    // Linked statically, for the host and for apps that use the core without plugins.
    .library(name: "Patchbay", targets: ["Patchbay"]),
    .library(name: "PatchbayTesting", targets: ["PatchbayTesting", "PatchbayTestReporting"]),
    .library(name: "PatchbayABI", targets: ["PatchbayABI"]),
    .library(name: "PatchbayEncoding", targets: ["PatchbayEncoding"]),
    .library(name: "PatchbayPlugin", targets: ["PatchbayPlugin"]),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-collections", from: "1.1.0"),
    .package(url: "https://github.com/pointfreeco/swift-case-paths", from: "1.5.0"),
    .package(url: "https://github.com/pointfreeco/swift-clocks", from: "1.0.4"),
    .package(url: "https://github.com/pointfreeco/swift-concurrency-extras", from: "1.1.0"),
    .package(url: "https://github.com/pointfreeco/swift-custom-dump", from: "1.3.0"),
    .package(url: "https://github.com/pointfreeco/swift-dependencies", from: "1.4.0"),
    .package(url: "https://github.com/pointfreeco/swift-identified-collections", from: "1.1.0"),
    .package(url: "https://github.com/pointfreeco/xctest-dynamic-overlay", from: "1.4.0"),
    .package(url: "https://github.com/swiftlang/swift-syntax", "600.0.0"..<"605.0.0"),
  ],
  targets: [
    // `import Patchbay`: TCA's `import ComposableArchitecture`. It re-exports the four targets
    // below and the libraries a feature names, and holds the `TestClock` that shadows
    // swift-clocks' one (a type shadows another only from a module that re-exports both).
    .target(
      name: "Patchbay",
      dependencies: [
        "PatchbayCore", "PatchbayComposition", "PatchbayNavigation", "PatchbaySharing",
        .product(name: "CasePaths", package: "swift-case-paths"),
        .product(name: "Clocks", package: "swift-clocks"),
        .product(name: "ConcurrencyExtras", package: "swift-concurrency-extras"),
        .product(name: "CustomDump", package: "swift-custom-dump"),
        .product(name: "Dependencies", package: "swift-dependencies"),
        .product(name: "DependenciesMacros", package: "swift-dependencies"),
        .product(name: "IdentifiedCollections", package: "swift-identified-collections"),
        .product(name: "IssueReporting", package: "xctest-dynamic-overlay"),
      ],
      path: "Patchbay"
    ),
    // The in-process core: the reducer protocol and builder, effects, stores, dependencies.
    .target(
      name: "PatchbayCore",
      dependencies: [
        .product(name: "CasePaths", package: "swift-case-paths"),
        .product(name: "ConcurrencyExtras", package: "swift-concurrency-extras"),
        .product(name: "CustomDump", package: "swift-custom-dump"),
        .product(name: "Dependencies", package: "swift-dependencies"),
        .product(name: "DependenciesMacros", package: "swift-dependencies"),
        .product(name: "DequeModule", package: "swift-collections"),
        .product(name: "IdentifiedCollections", package: "swift-identified-collections"),
        .product(name: "IssueReporting", package: "xctest-dynamic-overlay"),
        "PatchbayMacros",
      ],
      path: "PatchbayCore"
    ),
    // The reducers that compose features: Scope, ifLet, ifCaseLet, forEach, onChange, bindings.
    .target(
      name: "PatchbayComposition",
      dependencies: [
        "PatchbayCore",
        .product(name: "CasePaths", package: "swift-case-paths"),
        .product(name: "CustomDump", package: "swift-custom-dump"),
        .product(name: "IdentifiedCollections", package: "swift-identified-collections"),
      ],
      path: "PatchbayComposition"
    ),
    // Navigation as state: presentation (`@Presents`, alerts, dialogs), stacks, `dismiss`.
    .target(
      name: "PatchbayNavigation",
      dependencies: [
        "PatchbayCore", "PatchbayComposition",
        .product(name: "CasePaths", package: "swift-case-paths"),
        .product(name: "CustomDump", package: "swift-custom-dump"),
        .product(name: "Dependencies", package: "swift-dependencies"),
        .product(name: "IdentifiedCollections", package: "swift-identified-collections"),
        .product(name: "IssueReporting", package: "xctest-dynamic-overlay"),
        .product(name: "OrderedCollections", package: "swift-collections"),
      ],
      path: "PatchbayNavigation"
    ),
    // `@Shared` state: in memory, in a file, or the app's, across features and plugins.
    .target(
      name: "PatchbaySharing",
      dependencies: [
        "PatchbayCore", "CPatchbaySharingSlot",
        .product(name: "CustomDump", package: "swift-custom-dump"),
        .product(name: "Dependencies", package: "swift-dependencies"),
        .product(name: "IssueReporting", package: "xctest-dynamic-overlay"),
      ],
      path: "PatchbaySharing"
    ),
    // Which instance's `@Shared` storage is current on a thread, as a C thread-local.
    .target(name: "CPatchbaySharingSlot", path: "CPatchbaySharingSlot"),
    // `@Reducer` and `@ObservableState`, so TCA features compile unchanged.
    .macro(
      name: "PatchbayMacros",
      dependencies: [
        .product(name: "SwiftCompilerPlugin", package: "swift-syntax"),
        .product(name: "SwiftDiagnostics", package: "swift-syntax"),
        .product(name: "SwiftSyntax", package: "swift-syntax"),
        .product(name: "SwiftSyntaxBuilder", package: "swift-syntax"),
        .product(name: "SwiftSyntaxMacros", package: "swift-syntax"),
      ],
      path: "PatchbayMacros"
    ),
    // `TestStore`: send an action, assert the state, receive what effects fed back.
    .target(
      name: "PatchbayTesting",
      dependencies: [
        "Patchbay",
        .product(name: "CustomDump", package: "swift-custom-dump"),
        .product(name: "IssueReporting", package: "xctest-dynamic-overlay"),
      ],
      path: "PatchbayTesting"
    ),
    // Routes reported issues to Swift Testing and XCTest. Without it a failed assertion is
    // only printed and the test passes.
    .target(
      name: "PatchbayTestReporting",
      dependencies: [
        .product(name: "IssueReportingTestSupport", package: "xctest-dynamic-overlay")
      ],
      path: "PatchbayTestReporting"
    ),
    // The plugin ABI: `include/patchbay.h` and C helpers for the value encoding.
    .target(name: "PatchbayABI", path: "PatchbayABI"),
    // The value encoding of actions and state, in Swift: bytes, action text, JSON, Codable.
    .target(name: "PatchbayEncoding", path: "PatchbayEncoding"),
    // The SDK that exports Swift reducers as C-ABI features.
    .target(
      name: "PatchbayPlugin",
      dependencies: [
        "Patchbay", "PatchbayABI", "PatchbayEncoding", "PatchbayMacros",
        .product(name: "IssueReporting", package: "xctest-dynamic-overlay"),
      ],
      path: "PatchbayPlugin"
    ),
    // The macros' expansions and diagnostics (Tests/PatchbayMacrosTests; the root package
    // cannot reach a macro target of another package).
    .testTarget(
      name: "PatchbayMacrosTests",
      dependencies: [
        "PatchbayMacros",
        .product(name: "SwiftParser", package: "swift-syntax"),
        .product(name: "SwiftSyntaxMacroExpansion", package: "swift-syntax"),
        .product(name: "SwiftSyntaxMacrosTestSupport", package: "swift-syntax"),
      ]
    ),
  ],
  swiftLanguageModes: [.v6]
)

// `make` builds the project's own code with warnings as errors (it exports
// PATCHBAY_WARNINGS_AS_ERRORS=1), so a new warning fails `make test`. Built any other way — a
// plugin package depending on the SDK by path, a newer toolchain — warnings stay warnings.
if Context.environment["PATCHBAY_WARNINGS_AS_ERRORS"] == "1" {
  for target in package.targets where target.type != .system && target.type != .binary {
    target.swiftSettings = (target.swiftSettings ?? []) + [.treatAllWarnings(as: .error)]
    target.cSettings = (target.cSettings ?? []) + [.treatAllWarnings(as: .error)]
    target.cxxSettings = (target.cxxSettings ?? []) + [.treatAllWarnings(as: .error)]
  }
}
