// swift-tools-version: 6.1
// Features and their tests written as TCA writes them (bindings, collections, timers,
// cancellation, long-living effects), on Patchbay by changing one import line per file
// (`import ComposableArchitecture` → `import Patchbay` / `import PatchbayTesting`).
// `check.sh` runs the tests, then breaks each reducer and checks the tests fail.
import Foundation
import PackageDescription

// SwiftPM names a path dependency after its folder, whatever the clone is called.
let patchbayRoot = URL(fileURLWithPath: #filePath)
  .deletingLastPathComponent().appendingPathComponent("../..").standardizedFileURL
let patchbay = patchbayRoot.lastPathComponent

let package = Package(
  name: "ImportSwap",
  platforms: [.macOS(.v15)],
  dependencies: [
    .package(path: patchbayRoot.path)
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
