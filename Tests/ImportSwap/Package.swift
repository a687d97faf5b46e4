// swift-tools-version: 6.2
// Features and their tests written as TCA writes them (bindings, collections, timers,
// cancellation, long-living effects, alerts and dialogs, recursion, unlabeled Scope), on Patchbay by changing one import line per file
// (`import ComposableArchitecture` → `import Patchbay` / `import PatchbayTesting`).
// `check.sh` runs the tests, then breaks each reducer and checks the tests fail.
import PackageDescription

// The SDK package of this checkout (its name is the folder's: PatchbaySDK).
let patchbay = "PatchbaySDK"

let package = Package(
  name: "ImportSwap",
  platforms: [.macOS(.v15)],
  dependencies: [
    .package(path: "../../Sources/PatchbaySDK")
  ],
  targets: [
    .target(
      name: "CaseStudies",
      dependencies: [.product(name: "Patchbay", package: patchbay)]
    ),
    // Exactly the two products docs/FEATURES.md names ("Coming from TCA"); nothing else.
    .testTarget(
      name: "CaseStudiesTests",
      dependencies: [
        "CaseStudies",
        .product(name: "Patchbay", package: patchbay),
        .product(name: "PatchbayTesting", package: patchbay),
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
