/// The files of a new plugin package (`patchbay new NAME`): a Swift package whose `swift build`
/// makes lib<Name>.so, with a TestStore test and a Makefile that builds in the checkout's
/// build folder.
///
/// ```swift
/// let files = PluginTemplate(name: "Metronome", patchbayRoot: "/src/patchbay",
///   featureID: "com.example.metronome").files   // [("Package.swift", "…"), …]
/// ```
package struct PluginTemplate {
  let name: String
  let patchbayRoot: String

  /// The feature's id; the plugin's is it plus `-plugin`.
  let featureID: String

  package init(name: String, patchbayRoot: String, featureID: String) {
    (self.name, self.patchbayRoot, self.featureID) = (name, patchbayRoot, featureID)
  }

  /// The SDK package in the checkout: its name is PatchbaySDK whatever the checkout is called.
  var sdkPackage: String { "\(self.patchbayRoot)/Sources/PatchbaySDK" }

  package var files: [(String, String)] {
    [
      ("Package.swift", self.manifest),
      ("Sources/\(self.name)/\(self.name).swift", self.feature),
      ("Tests/\(self.name)Tests/\(self.name)Tests.swift", self.test),
      ("Makefile", self.makefile),
      (".gitignore", ".build/\nPackage.resolved\n"),
    ]
  }

  /// `make` builds in the checkout's build folder, where the SDK and swift-syntax (for the
  /// macros) are built already: seconds, where a build of its own takes over a minute.
  var makefile: String {
    """
    # Build, test and inspect this plugin with the Patchbay checkout at PATCHBAY.
    #   make           builds in the checkout's build folder, where the SDK and the swift-syntax
    #                  its macros need are built already (seconds); the plugin lands beside the
    #                  checkout's own plugins, in $(BUILD)/lib\(self.name).so, and loads beside them
    #   make test      builds, then runs the tests in Tests/ (TestStore, as in TCA)
    #   make inspect   builds, then lists what the plugin declares
    #   make validate  builds, then runs `patchbay validate` on it (VALIDATE_FLAGS="--strictness 10")
    #   make dev APP=app.toml
    #                  runs the app; saving a source file here rebuilds the plugin and swaps it
    #                  in, state kept (patchbay run --watch --rebuild)
    #   swift build    builds in .build here instead, the SDK and swift-syntax first (a minute
    #                  or two the first time, on two cores)
    PATCHBAY := \(self.patchbayRoot)
    BUILD := $(PATCHBAY)/.build/debug
    # Built as the checkout's make builds (the same flags, the same plan), the SDK already in
    # $(PATCHBAY)/.build is used as it is, whichever of the two makes ran last. Warnings as
    # errors applies to the checkout's own code only: this plugin's manifest does not read it.
    # Deterministic hashing keeps SwiftPM's order of compiler flags the same in every run.
    export PATCHBAY_WARNINGS_AS_ERRORS := 1
    export SWIFT_DETERMINISTIC_HASHING := 1

    build:
    \tswift build --scratch-path $(PATCHBAY)/.build

    test:
    \tswift build --scratch-path $(PATCHBAY)/.build --build-tests
    \tswift test --scratch-path $(PATCHBAY)/.build --skip-build

    inspect: build
    \t$(BUILD)/patchbay inspect $(BUILD)/lib\(self.name).so

    validate: build
    \t$(BUILD)/patchbay validate $(BUILD)/lib\(self.name).so $(VALIDATE_FLAGS)

    dev: build
    \t$(BUILD)/patchbay run $(APP) --watch --rebuild

    .PHONY: build test inspect validate dev

    """
  }

  var manifest: String {
    """
    // swift-tools-version: 6.1
    import PackageDescription

    // A Patchbay plugin: `swift build` makes .build/debug/lib\(self.name).so, beside the
    // libPatchbaySDK.so it links (keep them together; the host loads the SDK from there).
    let package = Package(
      name: "\(self.name)",
      products: [
        .library(name: "\(self.name)", type: .dynamic, targets: ["\(self.name)"])
      ],
      dependencies: [
        .package(path: "\(self.sdkPackage)")
      ],
      targets: [
        .target(
          name: "\(self.name)",
          dependencies: [.product(name: "PatchbaySDK", package: "PatchbaySDK")]
        ),
        // The feature's tests: TestStore sends actions and asserts the state, as in TCA.
        // PatchbayTestReporting routes a failed assertion to the test framework.
        .testTarget(
          name: "\(self.name)Tests",
          dependencies: [
            "\(self.name)",
            .product(name: "PatchbaySDK", package: "PatchbaySDK"),
            .product(name: "PatchbayTestReporting", package: "PatchbaySDK"),
          ]
        ),
      ],
      swiftLanguageModes: [.v6]
    )

    """
  }

  var feature: String {
    """
    import PatchbayPlugin

    /// \(self.name): a feature. Edit the state, the actions and `reduce`: `@Feature` lists the
    /// actions from `enum Action` (each case's doc comment is its summary) and makes it a
    /// `PluginFeature`; `#plugin` below exports it.
    @Feature
    public struct \(self.name) {
      public static let id = "\(self.featureID)"
      public static let summary = "Remembers a message and counts pings."

      public struct State: Codable, Equatable, Sendable {
        public var pings = 0
        public var message = ""
      }

      public enum Action: Codable, Equatable, Sendable {
        /// Counts one ping
        case ping
        /// Remembers a message
        case setMessage(text: String)
      }

      public init() {}

      public func reduce(into state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case .ping:
          state.pings += 1
        case .setMessage(let text):
          state.message = text
        }
        return .none
      }

      public static func render(_ state: State) -> String {
        "\\(state.message.isEmpty ? "(no message)" : state.message) — \\(state.pings) ping(s)"
      }
    }

    #plugin(
      id: "\(self.featureID)-plugin", name: "\(self.name)", version: "0.1.0",
      features: [\(self.name).self])

    """
  }

  var test: String {
    """
    import PatchbayPlugin
    import PatchbayTesting
    import Testing
    import \(self.name)

    /// \(self.name), tested the TCA way: send an action, say how the state changes.
    @Suite struct \(self.name)Tests {
      @Test func pingsCountAndTheMessageIsKept() async {
        let store = TestStore(initialState: \(self.name).initialState) { \(self.name)() }
        await store.send(.setMessage(text: "hello")) { $0.message = "hello" }
        await store.send(.ping) { $0.pings = 1 }
        await store.send(.ping) { $0.pings = 2 }
      }
    }

    """
  }
}
