// swift-tools-version: 6.1
// Features and their tests written as TCA writes them (bindings, collections, timers,
// cancellation, long-living effects), on Patchbay by changing one import line per file
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
    // Exactly the two products the README names; nothing else.
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
