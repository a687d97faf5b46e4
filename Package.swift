// swift-tools-version: 6.1
import PackageDescription

let package = Package(
  name: "Patchbay",
  platforms: [.macOS(.v15)],
  products: [
    .library(name: "Patchbay", targets: ["Patchbay"]),
    .library(name: "PatchbayTesting", targets: ["PatchbayTesting"]),
    .library(name: "PatchbayABI", targets: ["PatchbayABI"]),
    .library(name: "PatchbayEncoding", targets: ["PatchbayEncoding"]),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-collections", from: "1.1.0"),
    .package(url: "https://github.com/pointfreeco/swift-case-paths", from: "1.5.0"),
    .package(url: "https://github.com/pointfreeco/swift-clocks", from: "1.0.4"),
    .package(url: "https://github.com/pointfreeco/swift-custom-dump", from: "1.3.0"),
    .package(url: "https://github.com/pointfreeco/swift-dependencies", from: "1.4.0"),
    .package(url: "https://github.com/pointfreeco/swift-identified-collections", from: "1.1.0"),
    .package(url: "https://github.com/pointfreeco/xctest-dynamic-overlay", from: "1.4.0"),
  ],
  targets: [
    // The in-process core: reducers, effects, store, composition, navigation state.
    .target(
      name: "Patchbay",
      dependencies: [
        .product(name: "CasePaths", package: "swift-case-paths"),
        .product(name: "Clocks", package: "swift-clocks"),
        .product(name: "CustomDump", package: "swift-custom-dump"),
        .product(name: "Dependencies", package: "swift-dependencies"),
        .product(name: "DequeModule", package: "swift-collections"),
        .product(name: "OrderedCollections", package: "swift-collections"),
        .product(name: "IdentifiedCollections", package: "swift-identified-collections"),
        .product(name: "IssueReporting", package: "xctest-dynamic-overlay"),
      ]
    ),
    // `TestStore`: send an action, assert the state, receive what effects fed back.
    .target(
      name: "PatchbayTesting",
      dependencies: [
        "Patchbay",
        .product(name: "CustomDump", package: "swift-custom-dump"),
        .product(name: "IssueReporting", package: "xctest-dynamic-overlay"),
      ]
    ),
    // The plugin ABI: `include/patchbay.h` and C helpers for the value encoding.
    .target(name: "PatchbayABI"),
    // The value encoding of actions and state, in Swift: bytes, action text, JSON, Codable.
    .target(name: "PatchbayEncoding"),
    .testTarget(name: "PatchbayEncodingTests", dependencies: ["PatchbayEncoding", "PatchbayABI"]),
    .testTarget(name: "PatchbayTests", dependencies: ["Patchbay", "PatchbayTesting"]),
    .testTarget(name: "PatchbayTestingTests", dependencies: ["Patchbay", "PatchbayTesting"]),
  ],
  swiftLanguageModes: [.v6]
)
