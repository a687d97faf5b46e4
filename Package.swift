// swift-tools-version: 6.1
import CompilerPluginSupport
import PackageDescription

let package = Package(
  name: "Patchbay",
  platforms: [.macOS(.v15)],
  products: [
    .executable(name: "patchbay", targets: ["patchbay"]),
    .library(name: "Patchbay", targets: ["Patchbay"]),
    .library(name: "PatchbayTesting", targets: ["PatchbayTesting"]),
    .library(name: "PatchbayABI", targets: ["PatchbayABI"]),
    .library(name: "PatchbayEncoding", targets: ["PatchbayEncoding"]),
    .library(name: "PatchbayPlugin", targets: ["PatchbayPlugin"]),
    .library(name: "PatchbayHost", targets: ["PatchbayHost"]),
    .library(name: "PatchbayRealtime", targets: ["PatchbayRealtime"]),
    .library(name: "PatchbayAudio", targets: ["PatchbayAudio"]),
    .library(name: "PatchbayMIDI", targets: ["PatchbayMIDI"]),
    // Feature plugins: each a shared library the host loads with dlopen.
    .library(name: "Counter", type: .dynamic, targets: ["CounterPlugin"]),
    .library(name: "CounterAlt", type: .dynamic, targets: ["CounterAltPlugin"]),
    .library(name: "Echo", type: .dynamic, targets: ["EchoPlugin"]),
    .library(name: "Home", type: .dynamic, targets: ["HomePlugin"]),
    .library(name: "Practice", type: .dynamic, targets: ["PracticePlugin"]),
    .library(name: "Metronome", type: .dynamic, targets: ["MetronomePlugin"]),
    .library(name: "Synth", type: .dynamic, targets: ["SynthPlugin"]),
    .library(name: "Theory", type: .dynamic, targets: ["TheoryPlugin"]),
    .library(name: "Tuner", type: .dynamic, targets: ["TunerPlugin"]),
    // Broken on purpose, for the loader's bad-input tests.
    .library(name: "TestFixtureMisbehaving", type: .dynamic, targets: ["MisbehavingFixture"]),
    .library(name: "TestFixtureNoEntry", type: .dynamic, targets: ["NoEntryFixture"]),
    // Counter under an id from its file name: copies of it are distinct plugins (benchmarks).
    .library(name: "TestFixtureNumbered", type: .dynamic, targets: ["NumberedFixture"]),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    .package(url: "https://github.com/apple/swift-collections", from: "1.1.0"),
    .package(url: "https://github.com/pointfreeco/swift-case-paths", from: "1.5.0"),
    .package(url: "https://github.com/pointfreeco/swift-clocks", from: "1.0.4"),
    .package(url: "https://github.com/pointfreeco/swift-concurrency-extras", from: "1.1.0"),
    .package(url: "https://github.com/pointfreeco/swift-custom-dump", from: "1.3.0"),
    .package(url: "https://github.com/pointfreeco/swift-dependencies", from: "1.4.0"),
    .package(url: "https://github.com/pointfreeco/swift-identified-collections", from: "1.1.0"),
    .package(url: "https://github.com/pointfreeco/xctest-dynamic-overlay", from: "1.4.0"),
    .package(url: "https://github.com/ordo-one/malloc-interposer", from: "1.6.0"),
    .package(url: "https://github.com/swiftlang/swift-syntax", "600.0.0"..<"605.0.0"),
  ],
  targets: [
    // The in-process core: reducers, effects, store, composition, navigation state.
    .target(
      name: "Patchbay",
      dependencies: [
        .product(name: "CasePaths", package: "swift-case-paths"),
        .product(name: "Clocks", package: "swift-clocks"),
        .product(name: "ConcurrencyExtras", package: "swift-concurrency-extras"),
        .product(name: "CustomDump", package: "swift-custom-dump"),
        .product(name: "Dependencies", package: "swift-dependencies"),
        .product(name: "DependenciesMacros", package: "swift-dependencies"),
        .product(name: "DequeModule", package: "swift-collections"),
        .product(name: "OrderedCollections", package: "swift-collections"),
        .product(name: "IdentifiedCollections", package: "swift-identified-collections"),
        .product(name: "IssueReporting", package: "xctest-dynamic-overlay"),
        "PatchbayMacros",
      ]
    ),
    // `@Reducer` and `@ObservableState`, so TCA features compile unchanged.
    .macro(
      name: "PatchbayMacros",
      dependencies: [
        .product(name: "SwiftCompilerPlugin", package: "swift-syntax"),
        .product(name: "SwiftDiagnostics", package: "swift-syntax"),
        .product(name: "SwiftSyntax", package: "swift-syntax"),
        .product(name: "SwiftSyntaxBuilder", package: "swift-syntax"),
        .product(name: "SwiftSyntaxMacros", package: "swift-syntax"),
      ]
    ),
    // `TestStore`: send an action, assert the state, receive what effects fed back.
    .target(
      name: "PatchbayTesting",
      dependencies: [
        "Patchbay",
        .product(name: "CustomDump", package: "swift-custom-dump"),
        .product(name: "IssueReporting", package: "xctest-dynamic-overlay"),
        // Routes reported issues to Swift Testing and XCTest. Without it a failed assertion
        // is only printed and the test passes.
        .product(name: "IssueReportingTestSupport", package: "xctest-dynamic-overlay"),
      ]
    ),
    // The plugin ABI: `include/patchbay.h` and C helpers for the value encoding.
    .target(name: "PatchbayABI"),
    // The value encoding of actions and state, in Swift: bytes, action text, JSON, Codable.
    .target(name: "PatchbayEncoding"),
    // The SDK that exports Swift reducers as C-ABI features.
    .target(
      name: "PatchbayPlugin",
      dependencies: [
        "Patchbay", "PatchbayABI", "PatchbayEncoding",
        .product(name: "IssueReporting", package: "xctest-dynamic-overlay"),
      ]
    ),
    // Loader, registry and feature instances: the host side of the ABI.
    .target(
      name: "PatchbayHost",
      dependencies: [
        "Patchbay", "PatchbayABI", "PatchbayEncoding", "PatchbayRealtime", "PatchbayAudio",
        "PatchbayMIDI", "CFFI", "FFITrampolines",
        .product(name: "DequeModule", package: "swift-collections"),
      ]
    ),
    // libasound, for audio output and MIDI input (apt-get install libasound2-dev).
    .systemLibrary(
      name: "CALSA", path: "Sources/CALSA", pkgConfig: "alsa", providers: [.apt(["libasound2-dev"])]
    ),
    // libffi, for calling plugins' exported functions (apt-get install libffi-dev).
    .systemLibrary(
      name: "CFFI", path: "Sources/CFFI", pkgConfig: "libffi", providers: [.apt(["libffi-dev"])]
    ),
    // Trampolines that keep their address while the function behind them is swapped.
    .target(name: "FFITrampolines", dependencies: ["CFFI"]),
    // Keeps ALSA's own stderr messages for Patchbay's one-line errors.
    .target(name: "ALSAErrors", dependencies: ["CALSA"]),
    // What the realtime threads share: the SPSC ring, and a SCHED_FIFO thread.
    .target(name: "PatchbayRealtime"),
    // The audio thread and its outputs (ALSA, WAV file, paced null device).
    .target(name: "PatchbayAudio", dependencies: ["PatchbayRealtime", "CALSA", "ALSAErrors"]),
    // MIDI 1.0: the byte parser, and sources (ALSA sequencer and rawmidi, byte streams, SMF).
    .target(name: "PatchbayMIDI", dependencies: ["PatchbayRealtime", "CALSA", "ALSAErrors"]),
    // Proves the realtime paths allocate nothing (run by the tests): `.build/debug/realtime-check`.
    .target(
      name: "RealtimeCheckSupport",
      dependencies: [.product(name: "MallocInterposerSwift", package: "malloc-interposer")]
    ),
    .executableTarget(
      name: "realtime-check",
      dependencies: [
        "PatchbayAudio", "PatchbayMIDI", "PatchbayHost", "RealtimeCheckSupport",
        .product(name: "MallocInterposerSwift", package: "malloc-interposer"),
      ]
    ),
    // The command line.
    .executableTarget(
      name: "patchbay",
      dependencies: [
        "PatchbayHost", "PatchbayEncoding", "PatchbayAudio", "PatchbayMIDI",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]
    ),
    // Each Swift plugin: its features (a library tests can link) and its entry point.
    .target(
      name: "CounterFeature", dependencies: ["PatchbayPlugin"], path: "Plugins/Counter",
      exclude: ["Entry"]
    ),
    .target(
      name: "CounterPlugin", dependencies: ["CounterFeature"], path: "Plugins/Counter/Entry"
    ),
    .target(
      name: "CounterAltFeature", dependencies: ["PatchbayPlugin"], path: "Plugins/CounterAlt",
      exclude: ["Entry"]
    ),
    .target(
      name: "CounterAltPlugin", dependencies: ["CounterAltFeature"],
      path: "Plugins/CounterAlt/Entry"
    ),
    .target(name: "EchoPlugin", dependencies: ["PatchbayABI"], path: "Plugins/Echo"),
    .target(
      name: "SynthPlugin", dependencies: ["PatchbayABI"], path: "Plugins/Synth",
      linkerSettings: [.linkedLibrary("m")]),
    .target(
      name: "TheoryPlugin", dependencies: ["PatchbayABI"], path: "Plugins/Theory",
      linkerSettings: [.linkedLibrary("m")]),
    .target(
      name: "HomeFeature", dependencies: ["PatchbayPlugin"], path: "Plugins/Home",
      exclude: ["Entry"]
    ),
    .target(name: "HomePlugin", dependencies: ["HomeFeature"], path: "Plugins/Home/Entry"),
    .target(
      name: "PracticeFeature", dependencies: ["PatchbayPlugin"], path: "Plugins/Practice",
      exclude: ["Entry"]
    ),
    .target(
      name: "PracticePlugin", dependencies: ["PracticeFeature"], path: "Plugins/Practice/Entry"
    ),
    .target(
      name: "MetronomeFeature", dependencies: ["PatchbayPlugin"], path: "Plugins/Metronome",
      exclude: ["Entry"]
    ),
    .target(
      name: "MetronomePlugin", dependencies: ["MetronomeFeature"], path: "Plugins/Metronome/Entry"
    ),
    .target(
      name: "TunerFeature", dependencies: ["PatchbayPlugin"], path: "Plugins/Tuner",
      exclude: ["Entry"]
    ),
    .target(name: "TunerPlugin", dependencies: ["TunerFeature"], path: "Plugins/Tuner/Entry"),
    .target(
      name: "MisbehavingFixture", dependencies: ["PatchbayABI"],
      path: "Plugins/Fixtures/Misbehaving"
    ),
    .target(name: "NoEntryFixture", path: "Plugins/Fixtures/NoEntry"),
    .target(
      name: "NumberedFixture", dependencies: ["CounterFeature"], path: "Plugins/Fixtures/Numbered"),
    .testTarget(name: "PatchbayEncodingTests", dependencies: ["PatchbayEncoding", "PatchbayABI"]),
    .testTarget(name: "PatchbayTests", dependencies: ["Patchbay", "PatchbayTesting"]),
    .testTarget(
      name: "PatchbayPluginTests",
      dependencies: ["PatchbayPlugin", "PatchbayHost", "PatchbayTesting"]
    ),
    .testTarget(name: "PatchbayHostTests", dependencies: ["PatchbayHost", "PatchbayTesting"]),
    .testTarget(name: "CounterFeatureTests", dependencies: ["CounterFeature", "PatchbayTesting"]),
    .testTarget(
      name: "CounterAltFeatureTests", dependencies: ["CounterAltFeature", "PatchbayTesting"]),
    .testTarget(
      name: "PracticeFeatureTests", dependencies: ["PracticeFeature", "PatchbayTesting"]),
    .testTarget(
      name: "MetronomeFeatureTests", dependencies: ["MetronomeFeature", "PatchbayTesting"]),
    // Runs the built `patchbay` executable.
    // Fixtures/: recordings made by earlier versions, which must still replay.
    .testTarget(name: "patchbayTests", exclude: ["Fixtures"]),
    .testTarget(name: "PatchbayTestingTests", dependencies: ["Patchbay", "PatchbayTesting"]),
    .testTarget(
      name: "PatchbayMacrosTests",
      dependencies: [
        "PatchbayMacros",
        .product(name: "SwiftSyntaxMacroExpansion", package: "swift-syntax"),
        .product(name: "SwiftSyntaxMacrosTestSupport", package: "swift-syntax"),
      ]
    ),
    .testTarget(name: "PatchbayRealtimeTests", dependencies: ["PatchbayRealtime"]),
    .testTarget(name: "PatchbayAudioTests", dependencies: ["PatchbayAudio"]),
    .testTarget(
      name: "PatchbayMIDITests", dependencies: ["PatchbayMIDI", "PatchbayRealtime", "CALSA"]),
  ],
  swiftLanguageModes: [.v6]
)
