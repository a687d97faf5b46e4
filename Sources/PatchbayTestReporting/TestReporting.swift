// Links swift-issue-reporting's test support into a test binary, so a failed `TestStore`
// assertion is recorded by Swift Testing or XCTest, not only printed.
//
// `PatchbayTesting` reports through `IssueReporting`, which finds the test frameworks at run
// time by looking this library's symbols up in the process. It lives outside the
// `PatchbaySDK` library because it links XCTest and Swift Testing, which a plugin loaded by a
// host must not pull in. A test target that uses the shared SDK names both:
//
// ```swift
// .testTarget(
//   name: "CounterFeatureTests",
//   dependencies: [
//     "CounterFeature",
//     .product(name: "PatchbaySDK", package: "PatchbaySDK"),
//     .product(name: "PatchbayTestReporting", package: "PatchbaySDK"),
//   ]
// )
// ```
@_exported import IssueReportingTestSupport
